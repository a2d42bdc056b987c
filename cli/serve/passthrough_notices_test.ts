import assert from "node:assert/strict";
import { LOG_LEVEL_META_KEY, type ServerContext } from "@modelcontextprotocol/server";
import { withCallNotices } from "./passthrough_notices.ts";
import { MessageBoard } from "../../engine/message_board.ts";
import { ProgressBoard } from "../../engine/progress_board.ts";

/**
 * A daemon as ops/daemon_ops.ts answers the passthrough: `call` posts what
 * its server sent to both boards and ends the token before it answers;
 * `progress` and `callMessages` poll them.
 */
function daemon(sent: (post: (notice: unknown) => void) => void) {
  const progress = new ProgressBoard();
  const messages = new MessageBoard();
  return {
    request<T>(operation: string, params: Record<string, unknown> = {}): Promise<T> {
      const p = params as { token: string; after: number; holdMs: number; notify?: string };
      switch (operation) {
        case "call": {
          const notify = p.notify!;
          sent((notice) => {
            const n = notice as { progress?: { progress: number } };
            if (n.progress) progress.post(notify, n.progress);
            messages.post(notify, notice as never);
          });
          progress.end(notify);
          messages.end(notify);
          return Promise.resolve({ content: [{ type: "text", text: "done" }] } as T);
        }
        case "progress":
          return progress.poll(p.token, p.after, p.holdMs).then((u) =>
            ({ progress: u ?? null }) as T
          );
        case "callMessages":
          return messages.poll(p.token, p.after, p.holdMs) as Promise<T>;
      }
      throw new Error(`unexpected ${operation}`);
    },
  };
}

/** A request's server context that records what it sends, for a 2025-era client. */
function requestContext(progressToken?: string) {
  const sent: string[] = [];
  const sctx = {
    mcpReq: {
      _meta: progressToken === undefined ? {} : { progressToken },
      envelope: undefined,
      notify: (n: { params: { progress: number } }) => {
        sent.push(`progress ${n.params.progress}`);
        return Promise.resolve();
      },
      log: (level: string, data: unknown) => {
        sent.push(`${level} ${data}`);
        return Promise.resolve();
      },
    },
  } as unknown as ServerContext;
  return { sctx, sent };
}

Deno.test("withCallNotices() passes every progress update and log message on, in order, before the call's answer, when the last ones come with it", async () => {
  const { sctx, sent } = requestContext("tok");
  // The upstream's updates and its result arrive together: nothing was polled in between.
  const ctx = daemon((post) => {
    post({ progress: { progress: 1, total: 3 } });
    post({ level: "info", data: "half" });
    post({ progress: { progress: 2, total: 3 } });
    post({ progress: { progress: 3, total: 3 } });
  });
  const answer = await withCallNotices(ctx, sctx, (notify) => ctx.request("call", { notify }));
  const atAnswer = [...sent];
  assert.deepEqual(answer, { content: [{ type: "text", text: "done" }] });
  assert.deepEqual(atAnswer, ["progress 1", "info half", "progress 2", "progress 3"]);
});

Deno.test("withCallNotices() sends no progress to a client that gave no progress token, and carries no token when nothing is wanted", async () => {
  const { sctx, sent } = requestContext();
  const ctx = daemon((post) => {
    post({ progress: { progress: 1 } });
    post({ level: "warning", data: "w" });
  });
  await withCallNotices(ctx, sctx, (notify) => ctx.request("call", { notify }));
  assert.deepEqual(sent, ["warning w"]);
  const quiet = {
    mcpReq: { _meta: {}, envelope: {} },
  } as unknown as ServerContext;
  let carried: string | undefined = "unset";
  await withCallNotices(ctx, quiet, (notify) => Promise.resolve(carried = notify));
  assert.equal(
    carried,
    undefined,
    "a 2026-07-28 request naming no log level and no progress token",
  );
});

Deno.test("withCallNotices() hands send the level to ask the upstream for log messages at: debug for a 2025-era client, a 2026-07-28 request's own level, none when it names none", async () => {
  const ctx = daemon(() => {});
  const levels: unknown[] = [];
  const legacy = requestContext().sctx;
  const modern = (envelope: Record<string, unknown>) =>
    ({ mcpReq: { _meta: { progressToken: "t" }, envelope } }) as unknown as ServerContext;
  for (const sctx of [legacy, modern({ [LOG_LEVEL_META_KEY]: "warning" }), modern({})]) {
    await withCallNotices(ctx, sctx, (notify, level) => {
      levels.push(level);
      return ctx.request("call", { notify });
    });
  }
  assert.deepEqual(levels, ["debug", "warning", undefined]);
});

Deno.test("withCallNotices() cuts the notices' long poll short when the call answers before its token ends (a question)", async () => {
  let held = 0;
  let cut = 0;
  const ctx = {
    request<T>(
      operation: string,
      params: Record<string, unknown> = {},
      options: { signal?: AbortSignal } = {},
    ): Promise<T> {
      assert.equal(operation, "callMessages");
      if ((params.holdMs as number) === 0) {
        return Promise.resolve({ messages: [], ended: false } as T);
      }
      held++;
      // Held as the daemon holds it while the call runs (it waits on the question's answer),
      // to the end of its hold unless cut short.
      return new Promise<T>((resolve, reject) => {
        const end = setTimeout(() => resolve({ messages: [], ended: true } as T), 2_000);
        options.signal?.addEventListener("abort", () => {
          cut++;
          clearTimeout(end);
          reject(options.signal!.reason);
        }, { once: true });
      });
    },
  };
  const sctx = {
    mcpReq: { _meta: { progressToken: "p" }, notify: () => Promise.resolve() },
  } as unknown as ServerContext;
  const answer = await withCallNotices(ctx, sctx, () => Promise.resolve({ question: "q" }));
  assert.deepEqual(answer, { question: "q" });
  assert.equal(held, 1, "a poll was held while the call ran");
  assert.equal(cut, 1, "and cut short once the call answered, not held to its end");
});

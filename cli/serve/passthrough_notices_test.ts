import assert from "node:assert/strict";
import { LOG_LEVEL_META_KEY, type ServerContext } from "@modelcontextprotocol/server";
import { withCallNotices } from "./passthrough_notices.ts";
import type { WireNotification } from "../../wire/wire.ts";

const progress = (n: number, total = 3): WireNotification => ({
  method: "notifications/progress",
  params: { progress: n, total },
});
const log = (level: string, data: string): WireNotification => ({
  method: "notifications/message",
  params: { level, data },
});

/**
 * A request's server context that records what it sends, for a 2025-era
 * client: each send takes a timer's turn, as a write to a client does.
 */
function requestContext(progressToken?: string) {
  const sent: string[] = [];
  const slowly = (line: string) =>
    new Promise<void>((resolve) =>
      setTimeout(() => {
        sent.push(line);
        resolve();
      }, 0)
    );
  const sctx = {
    mcpReq: {
      _meta: progressToken === undefined ? {} : { progressToken },
      envelope: undefined,
      notify: (n: { params: { progress: number; progressToken: string } }) =>
        slowly(`progress ${n.params.progress} (${n.params.progressToken})`),
      log: (level: string, data: unknown) => slowly(`${level} ${data}`),
    },
  } as unknown as ServerContext;
  return { sctx, sent };
}

Deno.test("withCallNotices() passes every progress update and log message on, in order, before the call's answer, when the last ones come with it", async () => {
  const { sctx, sent } = requestContext("tok");
  // The daemon's lines and its answer arrive together: heard in one go, then answered.
  const answer = await withCallNotices(sctx, (hear) => {
    for (const n of [progress(1), log("info", "half"), progress(2), progress(3)]) hear!(n);
    return Promise.resolve({ content: [{ type: "text", text: "done" }] });
  });
  const atAnswer = [...sent];
  assert.deepEqual(answer, { content: [{ type: "text", text: "done" }] });
  assert.deepEqual(atAnswer, [
    "progress 1 (tok)",
    "info half",
    "progress 2 (tok)",
    "progress 3 (tok)",
  ]);
});

Deno.test("withCallNotices() sends what was heard before a call that fails, then throws its error", async () => {
  const { sctx, sent } = requestContext("tok");
  await assert.rejects(
    withCallNotices(sctx, (hear) => {
      hear!(progress(1));
      return Promise.reject(new Error("the call failed"));
    }),
    /the call failed/,
  );
  assert.deepEqual(sent, ["progress 1 (tok)"]);
});

Deno.test("withCallNotices() sends no progress to a client that gave no progress token, and listens to nothing when nothing is wanted", async () => {
  const { sctx, sent } = requestContext();
  await withCallNotices(sctx, (hear) => {
    hear!(progress(1));
    hear!(log("warning", "w"));
    return Promise.resolve();
  });
  assert.deepEqual(sent, ["warning w"]);
  const quiet = { mcpReq: { _meta: {}, envelope: {} } } as unknown as ServerContext;
  let heard: unknown = "unset";
  await withCallNotices(quiet, (hear) => Promise.resolve(heard = hear));
  assert.equal(heard, undefined, "a 2026-07-28 request naming no log level and no progress token");
});

Deno.test("withCallNotices() hands send the level to ask the upstream for log messages at: debug for a 2025-era client, a 2026-07-28 request's own level, none when it names none", async () => {
  const levels: unknown[] = [];
  const legacy = requestContext().sctx;
  const modern = (envelope: Record<string, unknown>) =>
    ({ mcpReq: { _meta: { progressToken: "t" }, envelope } }) as unknown as ServerContext;
  for (const sctx of [legacy, modern({ [LOG_LEVEL_META_KEY]: "warning" }), modern({})]) {
    await withCallNotices(sctx, (_hear, level) => Promise.resolve(levels.push(level)));
  }
  assert.deepEqual(levels, ["debug", "warning", undefined]);
});

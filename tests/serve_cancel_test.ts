/**
 * `mcpx serve` passes a client's `notifications/cancelled` on (decision
 * 0044): a cancelled `mcpx_call` ends the upstream request (the server hears
 * it), and a cancelled `mcpx_exec` stops its script.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { alive, background, eventually, fixtureArgv, mcpxArgv, world } from "./_helpers.ts";

function events(output: string): Record<string, any>[] {
  return output.split("\n").flatMap((line) => {
    try {
      const value = JSON.parse(line);
      return value && typeof value === "object" ? [value] : [];
    } catch {
      return [];
    }
  });
}

Deno.test("mcpx serve: a cancelled mcpx_call ends the upstream request, a cancelled mcpx_exec its script", async (t) => {
  await using w = await world();
  const env = { ...w.env };
  delete env.MCPX_TEST_MARK;
  const [deno, ...args] = fixtureArgv("hanging_http");
  await using hanging = background(deno, args, { env, cwd: w.dir });
  const port = () => events(hanging.output()).find((e) => e.event === "listening")?.port;
  assert.ok(await eventually(() => port() !== undefined, 30_000), hanging.output());
  await w.writeConfig({
    mcpServers: { remote: { url: `http://127.0.0.1:${port()}/mcp`, transport: "http" } },
  });
  const [command, ...serveArgs] = mcpxArgv(["serve"]);
  const c = new Client({ name: "cancel-test", version: "0" });
  await c.connect(new StdioClientTransport({ command, args: serveArgs, env: w.env, cwd: w.dir }));
  try {
    await t.step("mcpx_call: the server hears the request end", async () => {
      const cancel = new AbortController();
      const call = c.callTool(
        { name: "mcpx_call", arguments: { target: "remote.hang", arguments: {} } },
        { signal: cancel.signal },
      );
      call.catch(() => {});
      const hung = () => events(hanging.output()).find((e) => e.event === "hang")?.id;
      assert.ok(await eventually(() => hung() !== undefined, 30_000), hanging.output());
      cancel.abort();
      await assert.rejects(call);
      const ended = () =>
        events(hanging.output()).some((e) =>
          (e.event === "aborted" && e.id === hung()) ||
          (e.event === "cancelled" && e.requestId === hung())
        );
      assert.ok(await eventually(ended, 15_000), hanging.output());
    });
    await t.step("mcpx_exec: the script is stopped", async () => {
      const pidFile = `${w.dir}/script.pid`;
      const cancel = new AbortController();
      const run = c.callTool({
        name: "mcpx_exec",
        arguments: {
          code: `Deno.writeTextFileSync(${JSON.stringify(pidFile)}, String(Deno.pid)); ` +
            "await new Promise((resolve) => setTimeout(resolve, 600_000))",
        },
      }, { signal: cancel.signal, timeout: 120_000 });
      run.catch(() => {});
      // The script writes its pid while this reads: an empty or partial file is no pid yet.
      const pid = () => {
        try {
          const text = Deno.readTextFileSync(pidFile);
          return /^[1-9]\d*$/.test(text) ? Number(text) : undefined;
        } catch {
          return undefined;
        }
      };
      assert.ok(await eventually(() => pid() !== undefined, 60_000), "the script never started");
      assert.ok(alive(pid()!));
      cancel.abort();
      await assert.rejects(run);
      assert.ok(await eventually(() => !alive(pid()!), 15_000), `script ${pid()} still runs`);
    });
  } finally {
    await c.close();
  }
});

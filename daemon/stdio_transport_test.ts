import assert from "node:assert/strict";
import { ProcessGroupStdioTransport } from "./stdio_transport.ts";

/** Pids whose process group is `pgid` (reads /proc/<pid>/stat, field 5). */
function groupMembers(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) pids.push(Number(entry.name));
    } catch { /* gone */ }
  }
  return pids;
}

Deno.test("ProcessGroupStdioTransport.close() stops the server and everything it started", async () => {
  const transport = new ProcessGroupStdioTransport({
    command: "sh",
    args: ["-c", "sleep 300 & sleep 301 & wait"],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
  await transport.start();
  const pid = transport.pid!;
  const deadline = Date.now() + 5000;
  while (groupMembers(pid).length < 3 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(
    groupMembers(pid).length,
    3,
    "the shell and its two children share the server's group",
  );
  await transport.close();
  // SIGKILL is delivered asynchronously: a grandchild may take a moment to die.
  const gone = Date.now() + 5000;
  while (groupMembers(pid).length > 0 && Date.now() < gone) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(groupMembers(pid), []);
});

Deno.test("ProcessGroupStdioTransport keeps non-JSON stdout lines and stderr in the tail", async () => {
  const transport = new ProcessGroupStdioTransport({
    command: "sh",
    args: [
      "-c",
      'echo \'not json\'; echo \'oops\' >&2; echo \'{"jsonrpc":"2.0","method":"x"}\'; sleep 300',
    ],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
  const messages: unknown[] = [];
  transport.onmessage = (m) => messages.push(m);
  await transport.start();
  const deadline = Date.now() + 5000;
  while (
    (messages.length < 1 || !transport.stderrTail.toString().includes("oops")) &&
    Date.now() < deadline
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await transport.close();
  assert.deepEqual(messages, [{ jsonrpc: "2.0", method: "x" }]);
  assert.match(transport.stderrTail.toString(), /stdout: not json/);
  assert.match(transport.stderrTail.toString(), /oops/);
});

Deno.test("ProcessGroupStdioTransport.start() throws NotFound for a missing command", () => {
  const transport = new ProcessGroupStdioTransport({
    command: "/nonexistent/server",
    args: [],
    env: {},
  });
  assert.throws(() => transport.start(), Deno.errors.NotFound);
});

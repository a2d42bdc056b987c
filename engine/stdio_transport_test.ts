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

Deno.test("ProcessGroupStdioTransport reads a message written in many pieces once, byte by byte", async () => {
  // A 4 MiB message written 1,000 bytes at a time, then a small one. The earlier reader
  // rescanned and rebuilt its whole buffer for every chunk: quadratic in the message.
  const text = "z".repeat(4 << 20);
  const script = `
    const message = { jsonrpc: "2.0", method: "big", params: { text: "z".repeat(${text.length}) } };
    const line = new TextEncoder().encode(JSON.stringify(message) + "\\n");
    for (let at = 0; at < line.length; at += 1000) {
      let rest = line.subarray(at, Math.min(at + 1000, line.length));
      while (rest.length) rest = rest.subarray(Deno.stdout.writeSync(rest));
    }
    Deno.stdout.writeSync(new TextEncoder().encode('{"jsonrpc":"2.0","method":"small"}\\n'));
    await new Promise((r) => setTimeout(r, 300_000));
  `;
  const transport = new ProcessGroupStdioTransport({
    command: Deno.execPath(),
    args: ["eval", script],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1" },
  });
  const messages: { method?: string; params?: { text?: string } }[] = [];
  transport.onmessage = (m) => messages.push(m as (typeof messages)[number]);
  await transport.start();
  const deadline = Date.now() + 30_000;
  while (messages.length < 2 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await transport.close();
  assert.deepEqual(messages.map((m) => m.method), ["big", "small"]);
  assert.equal(messages[0].params?.text, text);
  const big = JSON.stringify({ jsonrpc: "2.0", method: "big", params: { text } }).length + 1;
  const small = '{"jsonrpc":"2.0","method":"small"}\n'.length;
  const work = transport.stdoutWork;
  assert.equal(work.scanned, big + small, "each byte scanned once");
  assert.equal(work.decoded, big + small - 2, "each byte but the newlines decoded once");
  assert.ok(work.joins <= 2, `${work.joins} joins`);
  assert.ok(work.copied <= 2 * (big + small), `${work.copied} bytes copied`);
});

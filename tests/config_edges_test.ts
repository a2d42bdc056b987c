/**
 * Configuration edge cases as a user meets them at the shell (issue 9): a
 * directory or a dangling link named like a configuration file is reported,
 * a device or a pipe given to `--config` is refused without reading it, a
 * document nested 20,000 levels deep is an error about the document, and a
 * duration written "5 mins" or "-5s" gets an error about its format. Each is
 * one `error:` line naming the file, exit code 1, no stack, no hang.
 */

import assert from "node:assert/strict";
import { fixtureServer, type RunResult, STACK_LINE, world } from "./_helpers.ts";

function refused(run: RunResult, message: RegExp): void {
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, /bug in mcpx|no configuration file found/);
  assert.doesNotMatch(run.stderr, STACK_LINE);
}

Deno.test("a directory or a dangling link named .mcp.json is reported, not passed over", async (t) => {
  await using w = await world();
  const path = `${w.dir}/.mcp.json`;
  await t.step("a directory", async () => {
    Deno.mkdirSync(path);
    refused(
      await w.mcpx(["ls"]),
      new RegExp(`error: config ${path}: is a directory, not a configuration file`),
    );
    Deno.removeSync(path);
  });
  await t.step("a symbolic link to nothing", async () => {
    Deno.symlinkSync(`${w.dir}/moved.json`, path);
    refused(
      await w.mcpx(["ls"]),
      new RegExp(
        `error: config ${path}: is a symbolic link to ${w.dir}/moved.json, which does not exist`,
      ),
    );
    Deno.removeSync(path);
  });
});

Deno.test("--config of a device or a named pipe is refused without reading it", async (t) => {
  await using w = await world();
  const fifo = `${w.dir}/pipe.json`;
  new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
  // Before: both were read forever (the command never ended).
  await t.step("/dev/zero", async () => {
    refused(
      await w.mcpx(["--config", "/dev/zero", "ls"], { timeoutMs: 20_000 }),
      /error: config \/dev\/zero: is a character device, not a configuration file/,
    );
  });
  await t.step("a FIFO, named by --config and by MCPX_CONFIG", async () => {
    refused(
      await w.mcpx(["--config", fifo, "ls"], { timeoutMs: 20_000 }),
      /is a named pipe \(FIFO\), not a configuration file/,
    );
    refused(
      await w.mcpx(["ls"], { env: { MCPX_CONFIG: fifo }, timeoutMs: 20_000 }),
      /is a named pipe \(FIFO\), not a configuration file/,
    );
  });
});

Deno.test("a document nested 20,000 levels deep is an error about the document", async () => {
  await using w = await world();
  const path = await w.writeConfig(
    `{ "mcpServers": {},\n  "deep": ${"[".repeat(20_000)}${"]".repeat(20_000)} }`,
  );
  refused(
    await w.mcpx(["ls"]),
    new RegExp(
      `error: config ${path}: objects and arrays nest more than 64 levels deep at ${path}:2:`,
    ),
  );
});

Deno.test('durations "5 mins" and "-5s" get an error about their format, not the limit', async (t) => {
  await using w = await world();
  const cases: [string, RegExp][] = [
    ["5 mins", /got "5 mins"; write "5m"/],
    ["-5s", /never negative, got "-5s"; write it without the minus sign, e\.g\. "5s"/],
  ];
  for (const [value, message] of cases) {
    await t.step(value, async () => {
      await w.writeConfig({ mcpServers: { fx: fixtureServer({ mcpx: { idleTimeout: value } }) } });
      const run = await w.mcpx(["ls"]);
      refused(run, message);
      // The world's folder name is random hex, which can hold "24d": only the message is read.
      const words = (text: string) => text.replaceAll(w.dir, "<dir>");
      assert.doesNotMatch(words(run.stderr), /\b24d\b|at most/);
      await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
      const setting = await w.mcpx(["config"], { env: { MCPX_DAEMON_IDLE_TIMEOUT: value } });
      assert.match(
        setting.stderr,
        new RegExp(`MCPX_DAEMON_IDLE_TIMEOUT: setting daemon.idleTimeout must be a duration`),
      );
      assert.doesNotMatch(words(setting.stderr), /\b24d\b|at most/);
    });
  }
});

/**
 * `mcpx explore` on real servers (spec 000, "The explorer"; decision 0082):
 * over a pipe it runs one command per line and prints each answer with its
 * `$ mcpx …` footer and no prompt; with stdin from /dev/null (a character
 * device, not a terminal) it exits at once without prompting; on a real
 * terminal (a tmux pane) it prompts, shows a namespace's signatures for its
 * bare name, cancels a running call at Ctrl-C and goes on, and leaves at
 * `quit` and at Ctrl-D.
 *
 * @module
 */

import assert from "node:assert/strict";
import { eventually, launcherArgv, stdioServer, type World, world } from "./_helpers.ts";
import { TMUX_ABSENT, tmuxPane } from "./_tmux.ts";

if (TMUX_ABSENT) console.warn(`explore's terminal test skipped: ${TMUX_ABSENT}`);

/** How long one explore run may take (the servers are listed before it starts). */
const RUN_MS = 60_000;

/** A world with server-everything and server-filesystem, listed once. */
async function listedWorld(): Promise<World> {
  const w = await world();
  await Deno.mkdir(`${w.dir}/files`);
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      filesystem: stdioServer("filesystem", [`${w.dir}/files`]),
    },
  });
  const ls = await w.json<{ namespaces: { namespace: string; state: string }[] }>(["ls"]);
  assert.deepEqual(ls.namespaces.map((ns) => [ns.namespace, ns.state]), [
    ["everything", "ready"],
    ["filesystem", "ready"],
  ]);
  return w;
}

/** The footers (`$ mcpx …` lines) of a transcript, in order. */
const footers = (text: string) => text.split("\n").filter((line) => line.startsWith("$ mcpx "));

Deno.test("mcpx explore over a pipe and from /dev/null", async (t) => {
  await using w = await listedWorld();

  await t.step(
    "over a pipe: each line's answer, then its command; no prompt; quit stops",
    async () => {
      const lines = [
        "ls",
        "everything",
        "filesystem.read_text_file",
        `call everything.echo '{"message":"hi from explore"}'`,
        "tyeps everything",
        "run x.ts",
        "quit",
        "ls",
      ];
      const run = await w.mcpx(["explore"], { stdin: lines.join("\n") + "\n", timeoutMs: RUN_MS });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(footers(run.stdout), [
        "$ mcpx ls",
        "$ mcpx types everything",
        "$ mcpx types filesystem.read_text_file",
        `$ mcpx call everything.echo '{"message":"hi from explore"}'`,
      ]);
      // The real commands' own renderings: the ls table, the signatures, the tool's answer.
      assert.match(run.stdout, /^everything +\d+ /m);
      assert.match(run.stdout, /declare namespace everything \{/);
      assert.match(run.stdout, /function echo\(args: /);
      assert.match(run.stdout, /function read_text_file\(args: /);
      assert.match(run.stdout, /^Echo: hi from explore$/m);
      assert.match(
        run.stderr,
        /^unknown command or namespace "tyeps"; did you mean types\? /m,
      );
      assert.match(run.stderr, /^explore does not run `run`; run it at a shell: mcpx run x\.ts/m);
      assert.ok(!`${run.stdout}${run.stderr}`.includes("mcpx>"), "no prompt off a terminal");
    },
  );

  await t.step(
    "chain lists the recent calls `log --chain` lists; chain <id> shows one",
    async () => {
      type Call = { call: string; server: string; tool: string };
      const isEcho = (c: Call) => c.server === "everything" && c.tool === "echo";
      let calls: Call[] = [];
      assert.ok(
        await eventually(async () => {
          calls = (await w.json<{ calls: Call[] }>(["log", "--chain"])).calls;
          return calls.some(isEcho);
        }),
        "the echo call reaches the log",
      );
      const echo = calls.find(isEcho)!;
      const run = await w.mcpx(["explore"], {
        stdin: `chain\nchain ${echo.call}\n`,
        timeoutMs: RUN_MS,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(footers(run.stdout), [
        "$ mcpx log --chain",
        `$ mcpx log --chain ${echo.call}`,
      ]);
      const [recent, one] = run.stdout.split("$ mcpx log --chain\n");
      assert.ok(recent.includes(echo.call), recent);
      assert.match(one, /everything\.echo/);
    },
  );

  await t.step(
    "stdin from /dev/null: not a terminal, so no prompt, and exit 0 at once",
    async () => {
      // What the test rests on: /dev/null is a character device, which a file-type test would call
      // interactive.
      assert.ok(
        Deno.statSync("/dev/null").isCharDevice,
        "this machine's /dev/null is not a character device (something replaced it with a file); " +
          "restore it: mknod -m 666 /dev/null c 1 3",
      );
      const started = Date.now();
      const run = await w.mcpx(["explore"], { timeoutMs: RUN_MS });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "");
      assert.equal(run.stderr, "");
      assert.ok(Date.now() - started < RUN_MS);
    },
  );
});

Deno.test({
  name: "mcpx explore on a terminal: prompt, a namespace's signatures, Ctrl-C, quit and Ctrl-D",
  ignore: TMUX_ABSENT !== undefined,
  async fn(t) {
    await using w = await listedWorld();
    // tmux drops a line's trailing blanks: the prompt `mcpx> ` reads `mcpx>`.
    const prompt = /mcpx>$/;

    await t.step("ls, a bare namespace, Ctrl-C at the prompt and in a call, quit", async () => {
      await using pane = await tmuxPane(launcherArgv(["explore"]), {
        env: w.env,
        cwd: w.dir,
        dir: w.dir,
      });
      await pane.waitFor(prompt);
      await pane.type("ls");
      const listed = await pane.waitFor(/^\$ mcpx ls\n+mcpx>$/m);
      assert.match(listed, /^everything +\d+ /m);

      // A bare namespace: its signatures, then the command that prints them.
      await pane.type("everything");
      const signatures = await pane.waitFor(/^\$ mcpx types everything\n+mcpx>$/m);
      assert.match(signatures, /declare namespace everything \{/);
      assert.match(signatures, /function echo\(args: /);

      // Ctrl-C while typing: the line is dropped and a new prompt given; nothing runs.
      await pane.send("typ");
      await pane.waitFor(/^mcpx> typ$/m);
      await pane.send("C-c");
      await pane.waitFor(/^mcpx> typ\^C\nmcpx>$/m);

      // Ctrl-C in a call that would take a minute: cancelled, and the prompt comes back.
      await pane.type(
        `call everything.trigger_long_running_operation '{"duration":60,"steps":60}'`,
      );
      await pane.waitFor(/trigger_long_running_operation: \d+\/60/);
      await pane.send("C-c");
      await pane.waitFor(
        /\ncancelled\n\$ mcpx call everything\.trigger_long_running_operation '.*'\n+mcpx>$/,
        20_000,
      );

      await pane.type("quit");
      assert.equal(await pane.exited(), 0);
    });

    await t.step("Ctrl-D at the prompt leaves", async () => {
      await using pane = await tmuxPane(launcherArgv(["explore"]), {
        env: w.env,
        cwd: w.dir,
        dir: w.dir,
      });
      await pane.waitFor(prompt);
      await pane.send("C-d");
      assert.equal(await pane.exited(), 0);
    });
  },
});

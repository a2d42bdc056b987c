/**
 * The inline terminal prompt for a question routed to a person (decision
 * 0040; cli/call/question.ts): `mcpx call` on a pseudo-terminal (util-linux
 * `script -qec`, as conformance/client.ts runs one) asks the fields one by
 * one, a value typed and a default accepted, and the call goes on with the
 * answer; `MCPX_INPUT=report` on the same terminal exits 75 instead; and
 * `mcpx elicit answer` refuses a person's question from a process that has
 * no terminal. Questions: server-everything's URL-mode elicitation, and the
 * fixture's `sign_in` (a credential field, so a person's form:
 * server-everything asks none on demand).
 * The person is played by answering each prompt once it is on the screen
 * (the line editor drops what was typed before it).
 */

import assert from "node:assert/strict";
import { fixtureServer, mcpxArgv, stdioServer, type World, world } from "./_helpers.ts";

/** What the terminal showed (stdout and stderr together) and the exit code. */
interface TtyRun {
  code: number;
  screen: string;
}

/**
 * Runs `mcpx <args>` on a pseudo-terminal; each time `replies[i][0]` appears
 * on the screen after the previous reply, types `replies[i][1]` and Enter.
 * Killed, failing the test, when it outlives 90 s.
 */
async function onTerminal(
  w: World,
  args: string[],
  replies: [RegExp, string][],
  env: Record<string, string> = {},
): Promise<TtyRun> {
  const quoted = mcpxArgv(args).map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qec", quoted, "/dev/null"],
    env: { ...w.env, SHELL: "/bin/sh", ...env },
    clearEnv: true,
    cwd: w.dir,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  const decoder = new TextDecoder();
  let screen = "";
  let from = 0;
  let next = 0;
  for await (const chunk of child.stdout) {
    screen += decoder.decode(chunk, { stream: true });
    if (next < replies.length && replies[next][0].test(screen.slice(from))) {
      from = screen.length;
      await writer.write(new TextEncoder().encode(`${replies[next++][1]}\r`));
    }
  }
  await writer.close().catch(() => {});
  const status = await child.status;
  const stderr = decoder.decode(await new Response(child.stderr).arrayBuffer());
  assert.equal(next, replies.length, `not every prompt came:\n${screen}\n${stderr}`);
  return { code: status.code, screen: screen + stderr };
}

/** The line editor's prompt `text` (it clears the line first: ESC [K), not the same words elsewhere. */
const promptOf = (text: string) =>
  new RegExp(String.fromCharCode(27) + "\\[K" + text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));

/** The prompt for a form field: its name, then its default in brackets when it has one. */
const promptFor = (field: string) =>
  new RegExp(String.fromCharCode(27) + `\\[K${field}(?: \\[[^\\]]*\\])?: `);

Deno.test("a person's question is asked inline on a terminal; MCPX_INPUT=report and no terminal exit 75 or refuse", async (t) => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "60s";
  await w.writeConfig({
    mcpServers: {
      asks: fixtureServer({ fixture: "asks" }),
      everything: stdioServer("everything", ["stdio"]),
    },
  });

  await t.step(
    "server-everything's URL elicitation: the URL shown, done confirmed inline",
    async () => {
      const run = await onTerminal(w, [
        "call",
        "everything.trigger-url-elicitation",
        '{"url":"https://example.test/consent"}',
      ], [[promptOf("done in the browser? [y/N]"), "y"]]);
      assert.equal(run.code, 0, run.screen);
      assert.match(run.screen, /open: https:\/\/example\.test\/consent/);
      assert.match(run.screen, /accept/i);
    },
  );

  await t.step("a field typed and a default accepted, then the call's result", async () => {
    const run = await onTerminal(w, ["call", "asks.sign_in", "{}"], [
      [promptFor("token"), "tok-typed-at-the-terminal"],
      [promptFor("region"), ""],
    ]);
    assert.equal(run.code, 0, run.screen);
    assert.match(run.screen, /field "token" asks for a credential/);
    assert.doesNotMatch(run.screen, /ask the user to run/);
    assert.match(run.screen, /"action":"accept"/);
    assert.match(run.screen, /"token":"tok-typed-at-the-terminal"/);
    assert.match(run.screen, /"region":"eu"/);
  });

  let id = "";
  await t.step("MCPX_INPUT=report on a terminal exits 75 with the question", async () => {
    const run = await onTerminal(w, ["call", "asks.sign_in", "{}"], [], {
      MCPX_INPUT: "report",
    });
    assert.equal(run.code, 75, run.screen);
    assert.match(
      run.screen,
      /this is for a person to answer: ask the user to run `mcpx elicit answer/,
    );
    id = run.screen.match(/question (elc-[0-9a-f]{8})/)![1];
  });

  await t.step(
    "`mcpx elicit answer` without a terminal is refused; with one it is taken",
    async () => {
      const refused = await w.mcpx(["elicit", "answer", id, "token=from-a-pipe"]);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /is for a person to answer .*in a terminal/);
      const shown = await w.json<{ state: string }>(["elicit", "show", id]);
      assert.equal(shown.state, "open");
      const taken = await onTerminal(w, ["elicit", "answer", id, "token=typed", "--wait"], []);
      assert.equal(taken.code, 0, taken.screen);
      assert.match(taken.screen, /"token":"typed"/);
    },
  );
});

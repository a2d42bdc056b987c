/**
 * Text a server sends cannot drive the terminal (issue 9 follow-up): a
 * server whose stderr, tool names, descriptions, errors, text results and
 * stray stdout hold control sequences (tests/fixtures/servers/escapes.ts) is
 * shown with each control character as `\uXXXX` by every command that prints
 * it, while `--json` still carries the exact text and a script's own output
 * passes unchanged (core/terminal_text.ts, core/io.ts).
 */
import assert from "node:assert/strict";
import { fixtureServer, type RunResult, world } from "./_helpers.ts";

/** What escapes.ts puts in every text it writes (clear, retitle, colour, CR, 8-bit CSI). */
const ESCAPES = "\x1b[2J\x1b]0;PWNED\x07\x1b[31mred\x1b[0m\rover\u009b6n";
/** Its start as mcpx shows it (tables and search also flatten the carriage return to a space). */
const SHOWN = "\\u001b[2J\\u001b]0;PWNED\\u0007\\u001b[31mred";

/** Control characters a terminal would act on: C0 but newline and tab, a CR not ending a line, DEL, C1. */
function controls(text: string): string[] {
  // deno-lint-ignore no-control-regex -- control characters are what it finds
  return [...text.matchAll(/\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g)].map((m) =>
    `U+${m[0].charCodeAt(0).toString(16).padStart(4, "0")} at ${m.index}`
  );
}

Deno.test("a server's control sequences reach no command's output raw; --json keeps them exact", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      esc: fixtureServer({ fixture: "escapes" }),
      dead: fixtureServer({ fixture: "escapes", env: { ESCAPES_FAIL_START: "1" } }),
    },
  });
  const mcpx = (...args: string[]) => w.mcpx(args, { timeoutMs: 120_000 });
  const assertShownSafely = (args: string[], result: RunResult, shown = true) => {
    const text = result.stdout + result.stderr;
    assert.deepEqual(controls(text), [], `mcpx ${args.join(" ")}:\n${JSON.stringify(text)}`);
    if (shown) assert.ok(text.includes(SHOWN), `mcpx ${args.join(" ")} shows the text:\n${text}`);
  };

  await t.step(
    "call: a text result, an isError result, a JSON-RPC error, a failed start",
    async () => {
      for (const args of [["call", "esc.paint", "{}"], ["call", "esc.smear", "{}"]]) {
        assertShownSafely(args, await mcpx(...args));
      }
      const blast = await mcpx("call", "esc.blast", "{}");
      assert.equal(blast.code, 1);
      assertShownSafely(["call", "esc.blast"], blast);
      assert.match(blast.stderr, /stdout: \\u001b\]0;junk\\u0007/, "the stray binary line too");
      const dead = await mcpx("call", "dead.ok", "{}");
      assert.equal(dead.code, 1);
      assertShownSafely(["call", "dead.ok"], dead);
    },
  );

  await t.step("status, ls, search, types, catalog and log", async () => {
    for (
      const args of [
        ["status"],
        ["search", "paint"],
        ["types", "esc"],
        ["types", "esc.paint"],
        ["catalog"],
        ["log", "--since", "1h"],
      ]
    ) {
      assertShownSafely(args, await mcpx(...args));
    }
    // ls shows no description of a tool, but its error column may show a start failure.
    assertShownSafely(["ls"], await mcpx("ls"), false);
  });

  await t.step("--json carries the exact text", async () => {
    const call = await mcpx("--json", "call", "esc.paint", "{}");
    assert.deepEqual(controls(call.stdout), []);
    assert.equal(JSON.parse(call.stdout).content[0].text, `painted ${ESCAPES}`);
    const status = await mcpx("--json", "status");
    assert.deepEqual(controls(status.stdout), []);
    assert.ok(
      JSON.stringify(JSON.parse(status.stdout)).includes(JSON.stringify(ESCAPES).slice(1, -1)),
    );
    const search = await mcpx("--json", "search", "paint");
    assert.ok(
      JSON.parse(search.stdout).hits.some((hit: { description?: string }) =>
        hit.description?.includes("\x1b[2J\x1b]0;PWNED\x07")
      ),
      search.stdout,
    );
  });

  await t.step(
    "a script's own stdout and stderr pass unchanged; its log lines are mcpx's",
    async () => {
      const text = JSON.stringify(ESCAPES);
      await Deno.writeTextFile(
        `${w.dir}/paint.ts`,
        `console.log(${text});\n` +
          `Deno.stderr.writeSync(new TextEncoder().encode(${text} + "\\n"));\n` +
          `console.error("logged", ${text});\n`,
      );
      const run = await mcpx("run", "./paint.ts");
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `${ESCAPES}\n`);
      assert.ok(run.stderr.includes(`${ESCAPES}\n`), JSON.stringify(run.stderr));
      // console.error becomes a log record (docs/scripts.md), which mcpx renders: shown safely.
      assert.match(run.stderr, /logged \\u001b\[2J/);
    },
  );
});

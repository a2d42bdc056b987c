import assert from "node:assert/strict";
import { manPage, roff } from "./man.ts";
import * as manCommand from "./man.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import { OP_ROWS } from "../../ops/_table.gen.ts";

/** The page as groff renders it for a terminal, with its warnings; null without groff. */
async function rendered(page: string): Promise<{ text: string; warnings: string } | null> {
  let child;
  try {
    child = new Deno.Command("groff", {
      // -P-cbou: plain text, no overstrike for bold or underline.
      args: ["-man", "-Tutf8", "-ww", "-P-cbou"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(30_000),
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(page));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0);
  const decoder = new TextDecoder();
  // Justified lines read as single-spaced.
  const text = decoder.decode(out.stdout).replace(/\s+/g, " ");
  return { text, warnings: decoder.decode(out.stderr) };
}

Deno.test("manPage() is a section 1 page with every command and no hidden one", async () => {
  const page = manPage();
  assert.match(page, /^\.TH MCPX 1 /);
  for (const section of ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS"]) {
    assert.match(page, new RegExp(`^\\.SH ${section}$`, "m"), section);
  }
  assert.match(page, /^\.SH "EXIT STATUS"$/m);
  // Nothing but printable ASCII: the page needs no input encoding (roff escapes the rest).
  assert.match(page, /^[\t\n -~]*$/);
  const out = await rendered(page);
  if (out === null) console.warn("groff is not installed: the page was not rendered");
  else assert.equal(out.warnings, "", "groff warned");
  for (const op of OP_ROWS) {
    if (!op.cli) continue;
    const tag = `\\fBmcpx ${roff(op.cli.command)}`;
    if (op.cli.hidden) {
      assert.ok(!page.includes(tag), `${op.name} is hidden but on the page`);
      continue;
    }
    assert.ok(page.includes(tag), `${op.name} is not on the page`);
    if (out) assert.ok(out.text.includes(`mcpx ${op.cli.command}`), `${op.name} not rendered`);
  }
});

Deno.test("roff() escapes what roff would read as markup", () => {
  assert.equal(roff("a-b \\n"), "a\\-b \\en");
  assert.equal(roff(".start\n'quote"), "\\&.start\n\\&'quote");
  assert.equal(roff("words…"), "words\\[u2026]");
});

Deno.test("man handle() answers { page }: the page itself on a terminal, one JSON line under --json", async () => {
  const outcome = await manCommand.handle();
  assert.deepEqual(outcome, { kind: "ok", value: { page: manPage() } });
  for (const json of [false, true]) {
    const io = memoryIo();
    // MCPX_OUTPUT_JSON alone (json() true) does not turn the page into JSON: only --json does.
    const ctx = {
      io,
      env: {},
      jsonFlag: json,
      json: () => Promise.resolve(true),
    } as unknown as CliContext;
    assert.equal(await runHandler(ctx, manCommand, {}), 0);
    assert.equal(io.stdout, json ? JSON.stringify({ page: manPage() }) + "\n" : manPage());
  }
});

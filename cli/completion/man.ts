/**
 * `mcpx man`: the manual page, mcpx(1), in roff with the `man` macros,
 * generated from the op table's plain-data rendering (ops/_table.gen.ts),
 * the global flags and the exit codes (core/errors.ts `EXIT`), so it cannot
 * drift from the command line it describes. Hidden commands are left out.
 * Read it with `mcpx man | man -l -`.
 *
 * @module
 */

import { OP_ROWS } from "../../ops/_table.gen.ts";
import type { OpRow } from "../../ops/gen.ts";
import type { FlagRow } from "../../ops/op.ts";
import { GLOBAL_FLAGS } from "../../ops/global_flags.ts";
import { EXIT } from "../../core/errors.ts";
import { VERSION } from "../../core/version.ts";
import { type Answered, ok } from "../../ops/outcome.ts";

/**
 * Text as roff reads it: backslashes and hyphens escaped (`\e`, `\-`), a
 * character beyond ASCII as its named Unicode escape (`…` is `\[u2026]`, so
 * the page needs no input encoding; a control character likewise), and a line that would start with `.` or
 * `'` (a request) guarded with `\&`.
 */
export function roff(text: string): string {
  return text.replaceAll("\\", "\\e").replaceAll("-", "\\-")
    .replace(
      /[^\t\n -~]/gu,
      (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`,
    )
    .split("\n")
    .map((line) => /^[.']/.test(line) ? `\\&${line}` : line).join("\n");
}

/** The meaning of each exit code (CONVENTIONS.md, rule 5; docs/cli.md, "Exit codes"). */
const EXIT_MEANING: Record<keyof typeof EXIT, string> = {
  ok: "success",
  failure:
    "failure: a server could not start, a call failed, a tool returned isError, a configuration is broken",
  usage: "usage error: the command line cannot be run as written",
  tempfail: "reserved: waiting for an answer (EX_TEMPFAIL)",
};

function flagItems(flags: Readonly<Record<string, FlagRow>>): string[] {
  return Object.entries(flags).flatMap(([name, f]) => {
    const spelling = `${f.short ? `\\fB\\-${f.short}\\fR, ` : ""}\\fB\\-\\-${roff(name)}\\fR${
      f.bare !== undefined ? `[=\\fIvalue\\fR]` : f.type === "string" ? ` \\fIvalue\\fR` : ""
    }`;
    const notes = [
      ...(f.multiple && !f.help.includes("repeatable") ? ["repeatable"] : []),
      ...(f.setting ? [`sets the setting ${f.setting}`] : []),
      ...(Array.isArray(f.complete) ? [`one of ${f.complete.join(", ")}`] : []),
    ];
    return [".TP", spelling, roff([f.help, ...notes].join("; "))];
  });
}

/**
 * The page.
 *
 * @param rows The ops as plain data (default: ops/_table.gen.ts).
 * @returns roff source for `man -l -` or `groff -man`, ending in a newline.
 */
export function manPage(rows: readonly OpRow[] = OP_ROWS): string {
  const commands = rows.filter((op) => op.cli && !op.cli.hidden);
  const lines = [
    `.TH MCPX 1 "" "mcpx ${VERSION}" "User Commands"`,
    ".SH NAME",
    "mcpx \\- every MCP server behind one command",
    ".SH SYNOPSIS",
    ".B mcpx",
    '.RI [ options ] " command " [ arguments ]',
    ".SH DESCRIPTION",
    roff(
      "mcpx reaches the MCP servers configured on this machine from the shell. A daemon, one per " +
        "configuration file, keeps server processes warm between commands; tool schemas are " +
        "read from a cache, so discovery starts no server that is already listed.",
    ),
    ".PP",
    roff(
      "Every command accepts the global options below, and every setting as a flag " +
        "(mcpx config --schema lists them). --json prints a command's machine-readable output.",
    ),
    ".SH COMMANDS",
  ];
  for (const op of commands) {
    const cli = op.cli!;
    lines.push(".TP", `\\fB${roff(cli.usage)}\\fR`, roff(op.description));
    if (Object.keys(cli.flags ?? {}).length) {
      lines.push(".RS", ...flagItems(cli.flags!), ".RE");
    }
  }
  lines.push(".SH OPTIONS", ...flagItems(GLOBAL_FLAGS), '.SH "EXIT STATUS"');
  for (const [name, code] of Object.entries(EXIT) as [keyof typeof EXIT, number][]) {
    lines.push(".TP", `.B ${code}`, roff(EXIT_MEANING[name]));
  }
  lines.push(
    '.SH "SEE ALSO"',
    roff("mcpx completion bash|zsh|fish (shell completion); docs/cli.md in the source tree."),
    "",
  );
  return lines.join("\n");
}

/**
 * Answers `mcpx man`: `{ page }`, the roff source; the terminal gets the page
 * itself, `--json` the document on one line.
 */
export function handle(): Promise<Answered<{ page: string }>> {
  return Promise.resolve(ok({ page: manPage() }));
}

/** The page itself, for `man -l -`. */
export function text({ page }: { page: string }): string {
  return page;
}

/** `--json` prints `{ "page" }` on one line. */
export const jsonLine = true;

/** Only `--json` itself asks for the document: `mcpx man | man -l -` with MCPX_OUTPUT_JSON set still reads a page. */
export const jsonFlagOnly = true;

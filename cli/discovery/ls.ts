/**
 * `mcpx ls`: one row per server — NAMESPACE TOOLS SHARING SCOPE LIVE STATE
 * DESCRIPTION — from the schema cache, never starting a server that is
 * already cached (spec 000, "Zero-context discovery"). A running daemon
 * answers the rows from its own memory, with LIVE; none is started for it. The
 * configuration's and the settings' warnings come first, one `warning:` line
 * each on stderr (and under `warnings` with `--json`), so a misspelt key is
 * not silent; then, when a nearer file's servers hide another's (a project's
 * `.mcp.json` over the user's own), a `note:` naming both and `--config`
 * (under `shadowed` with `--json`). Only the servers of the profile selection are listed (spec
 * 000, "Profiles and aliases"); a footer says how many others there are.
 * A server whose first listing is in progress is not waited for (past the
 * `discovery.wait` grace for one this command starts): its row says
 * `starting` and a line names `mcpx ls --wait`, which waits (decision 0010).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { noConfigMessage } from "../../config/discover.ts";
import { renderTable, truncate } from "../table.ts";
import type { Text, TextView } from "../commands.ts";
import type { Answered } from "../../ops/outcome.ts";
import { answer, type LsAnswer, lsHostOf, type LsOutput } from "../../ops/ls.ts";
import type { InputOf } from "../../ops/op.ts";
import type { ls } from "../../ops/discovery_ops.ts";
import { checkSelection, selectionFromSettings } from "../../config/profiles.ts";
import { directFix, directSpelling } from "../../config/direct_target.ts";
import { listingWaitOf } from "../../ops/wait_flag.ts";
import type { ListingWait } from "../../engine/tool_listing.ts";
import { startingCell, startingSentence } from "../../discovery/starting_note.ts";
import { shadowing } from "./shadow_note.ts";

export type { LsRow } from "../../ops/ls.ts";

/** The most unusable tools `ls` names in its note; `ls --json` has them all. */
const NOTE_NAMES = 5;

/** What only the terminal rendering of `ls` shows beyond the document. */
export interface LsExtra {
  /** The tools left out as unusable, named briefly in a note (`ls --json` has each reason). */
  unusable: LsAnswer["unusable"];
  /** The working directory, where the configuration search began. */
  cwd: string;
  /** The server named on the command line: how it is spelt again, and what to check when it fails. */
  direct?: { spelling: string; fix: string };
}

/**
 * Runs `mcpx ls`: the op's rows (ops/ls.ts), with the configuration's
 * warnings and, when a nearer file hides another's servers, a note naming
 * both (the files under `shadowed` in the document).
 *
 * @returns `ok` with the rows; `failed` when a server named on the command
 *   line failed (it is the whole answer).
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof ls>,
): Promise<Answered<LsOutput>> {
  // A server named on the command line is the whole answer: it is waited for unless told otherwise.
  const wait = ctx.direct && input.wait === undefined
    ? undefined
    : listingWaitOf(input.wait, await ctx.setting("discovery.wait"));
  const { output, unusable } = await fromDaemon(ctx, wait) ??
    await answer(input, lsHostOf(ctx, wait));
  // A nearer file's servers win: say whose are not shown, and how to see them.
  const { shadowed, note } = await shadowing(ctx);
  // A server named on the command line is the whole answer: when it failed, so did `ls`.
  const directFailed = ctx.direct !== undefined &&
    output.namespaces.some((r) => r.state === "error");
  const extra: LsExtra = {
    unusable,
    cwd: ctx.cwd,
    ...(ctx.direct
      ? { direct: { spelling: directSpelling(ctx.direct), fix: directFix(ctx.direct) } }
      : {}),
  };
  return {
    kind: directFailed ? "failed" : "ok",
    value: shadowed.length ? { ...output, shadowed } : output,
    // Before any other output: a misspelt "mcpServers" explains the "No servers" below.
    ...(output.warnings.length ? { warnings: output.warnings } : {}),
    ...(note ? { notes: [note] } : {}),
    extra,
  };
}

/**
 * The rows as a table, then what the terminal says about them: the
 * listing problems and unusable tools briefly on stderr, servers outside the
 * profile selection, those still starting, the untrusted ones whole, and the
 * next command; or why there are no rows.
 */
export function text(output: LsOutput, view: TextView): Text {
  const { unusable, cwd, direct } = view.extra as LsExtra;
  const { namespaces: rows, unselected, problems } = output;
  const others = unselected.length
    ? `${unselected.length} more outside the selected profiles (${unselected.join(", ")}); ` +
      "`--profile <name>` or `--all-profiles` shows them.\n"
    : "";
  if (rows.length === 0 && others) return `No servers selected: ${others}`;
  if (rows.length === 0) {
    return output.config
      ? `No servers in ${output.config}. Add one under "mcpServers".\n`
      : `No servers: ${noConfigMessage(output.searched ?? [], cwd)}.\n`;
  }
  const width = Math.max(40, view.columns - 60);
  let out = renderTable(
    ["NAMESPACE", "TOOLS", "SHARING", "SCOPE", "LIVE", "STATE", "DESCRIPTION"],
    rows.map((r) => [
      r.namespace,
      String(r.tools),
      r.sharing,
      r.scope,
      String(r.live),
      r.state,
      // An untrusted server is explained below the table, whole.
      truncate(
        r.starting
          ? startingCell(r.starting)
          : (r.untrusted ? undefined : r.error) ?? r.description,
        width,
      ),
    ]),
  );
  let err = "";
  // Tools a server lists but mcpx cannot call are said once, briefly: `ls` runs often and an
  // agent pays for every line (`ls --json` and `types` give each reason).
  const said = new Set(unusable.map((u) => u.problem));
  for (const problem of problems) {
    if (!said.has(problem)) err += `warning: ${problem}\n`;
  }
  if (unusable.length) {
    // A few names, not a hundred: the same server configured many times repeats its tool.
    const names = unusable.slice(0, NOTE_NAMES).map((u) => `${u.server}.${u.tool}`);
    const more = unusable.length - names.length;
    err += `note: ${unusable.length} tool${unusable.length > 1 ? "s" : ""} left out as unusable (${
      names.join(", ")
    }${more ? ` and ${more} more` : ""}); \`mcpx ls --json\` says why\n`;
  }
  if (others) out += `\n${others}`;
  // Said on stdout, terminal or not: the table answered without them (decision 0010).
  const starting = rows.flatMap((r) =>
    r.starting ? [{ namespace: r.namespace, ...r.starting }] : []
  );
  if (starting.length) out += `\n${startingSentence(starting, starting[0].wait)}\n`;
  const errors = rows.some((r) => r.state === "error");
  // Said whole, once: the table cuts sentences, and this is the part that matters.
  const untrusted = rows.flatMap((r) =>
    r.untrusted ? [{ namespace: r.namespace, ...r.untrusted }] : []
  );
  const first = untrusted[0];
  if (first) {
    const width = Math.max(...untrusted.map((u) => u.namespace.length));
    const lines = untrusted.map((u) => `  ${u.namespace.padEnd(width)}  ${u.runs}`);
    out += `\n${first.file} is a project's configuration, not trusted with what these servers ` +
      `run, so mcpx starts none of them:\n${lines.join("\n")}\nReview it, then run ` +
      `\`${first.trustCommand}\`. An agent should ask its user to run that, not run it itself.\n`;
  }
  if (direct) {
    const failed = rows.find((r) => r.state === "error");
    if (failed) return { out, err: err + `error: ${failed.error}\n${direct.fix}\n` };
    out += `\nNext: \`mcpx types ${direct.spelling}\` shows its tools; ` +
      `\`mcpx call ${direct.spelling} <tool> '{…}'\` calls one.\n`;
    return { out, err };
  }
  // Search first: its last line is the `mcpx types` command for just its hits (the browser
  // walk in docs/browser-walk.md costs a quarter of loading the whole namespace).
  out += `\nNext: \`mcpx search <words>\` finds tools and prints the \`mcpx types\` command ` +
    `for them.` + (errors ? " `mcpx status` shows why a server failed." : "") + "\n";
  return { out, err };
}

/**
 * The rows answered by this configuration's daemon when one is running: it
 * holds the cache parsed and counts its own instances, so `ls` costs the same
 * however many servers there are (decision 0030). The warnings are this
 * command's own. Undefined, and the CLI answers from the cache's files, when
 * no daemon runs, with no configuration file, or when a server the
 * configuration keeps from starting (untrusted, an unset variable) must be
 * explained as the files explain it.
 *
 * @throws {UsageError} For a profile no server has.
 */
async function fromDaemon(
  ctx: CliContext,
  wait: ListingWait | undefined,
): Promise<LsAnswer | undefined> {
  const config = await ctx.config();
  // A daemon elsewhere (daemon.endpoint) is the only answer: this machine's files are not its.
  const remote = await ctx.endpoint();
  if (!remote && (config.path === null || config.servers.some((s) => s.unavailable))) {
    return undefined;
  }
  checkSelection(config.servers, selectionFromSettings((await ctx.settings()).values));
  const answered = await ctx.requestRunning<LsAnswer>("lsNamespaces", wait ? { wait } : {});
  return answered && {
    ...answered,
    output: { ...answered.output, warnings: await ctx.warnings() },
  };
}

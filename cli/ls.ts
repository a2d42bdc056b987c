/**
 * `mcpx ls`: one row per server — NAMESPACE TOOLS SHARING SCOPE LIVE STATE
 * DESCRIPTION — from the schema cache, never starting a server that is
 * already cached (spec 000, "Zero-context discovery"). LIVE comes from a
 * running daemon when one answers; none is started for it. The
 * configuration's and the settings' warnings come first, one `warning:` line
 * each on stderr (and under `warnings` with `--json`), so a misspelt key is
 * not silent. Only the servers of the profile selection are listed (spec
 * 000, "Profiles and aliases"); a footer says how many others there are.
 *
 * @module
 */

import type { Runnable } from "../config/runs_of.ts";
import { UnsafeDirectoryError } from "../core/private_fs.ts";
import type { CliContext } from "./context.ts";
import { lastFailure } from "../discovery/cache_entry.ts";
import { listingOf } from "../config/types.ts";
import { noConfigMessage } from "../config/discover.ts";
import { renderTable, truncate } from "./table.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { own } from "../core/own.ts";

/** One row of `mcpx --json ls`. */
export interface LsRow {
  namespace: string;
  server: string;
  tools: number;
  sharing: string;
  scope: string;
  live: number;
  /**
   * `untrusted`: a project's configuration not trusted with what the server
   * runs, so nothing starts it; `error` says which command trusts it.
   */
  state: "ready" | "error" | "disabled" | "unlisted" | "untrusted";
  description: string;
  error?: string;
  /** The server this namespace is an alias of (`aliasOf`). */
  aliasOf?: string;
  /** The profiles the server belongs to (`mcpx.profiles`), when any. */
  profiles?: string[];
  /** State `untrusted`: the file, the command that trusts it, what the server would run, why. */
  untrusted?: {
    file: string;
    trustCommand: string;
    runs: string;
    /** Every field the trust hash covers, as data (config/runs_of.ts `Runnable`). */
    runnable: Runnable;
    reason: string;
  };
}

export async function run(ctx: CliContext): Promise<number> {
  const config = await ctx.config();
  const { namespaces, problems, cache, disabled } = await ctx.namespaces({ optional: true });
  const unselected = disabled.filter((d) => d.unselected !== undefined).map((d) => d.namespace);
  const live = await liveCounts(ctx);
  // Sets and maps, not a search per server: a configuration may hold thousands of servers.
  const hidden = new Set(unselected);
  const byServer = new Map(namespaces.map((n) => [n.server, n]));
  const shown = config.servers.filter((spec) => !hidden.has(spec.namespace));
  const rows: LsRow[] = shown.map((spec) => {
    const entry = own(cache?.servers, listingOf(spec).name);
    const ns = byServer.get(spec.name);
    const running = own(live, spec.namespace);
    // A start failure the daemon saw is newer news than the cache's last listing.
    const failed = spec.unavailable
      ? { message: spec.unavailable.message }
      : running?.failure && !running.live
      ? { message: running.failure }
      : lastFailure(entry);
    const state = spec.disabled
      ? "disabled"
      : spec.unavailable?.code === "untrusted"
      ? "untrusted"
      : failed
      ? "error"
      : entry?.listedAt
      ? "ready"
      : "unlisted";
    return {
      namespace: spec.namespace,
      server: spec.name,
      tools: ns?.tools.length ?? 0,
      sharing: spec.pool.sharing,
      scope: spec.pool.scope,
      live: running?.live ?? 0,
      state,
      description: spec.description ?? entry?.serverInfo?.title ?? entry?.serverInfo?.name ?? "",
      ...(failed ? { error: failed.message } : {}),
      ...(spec.aliasOf ? { aliasOf: spec.aliasOf.server } : {}),
      ...(spec.profiles?.length ? { profiles: spec.profiles } : {}),
      ...(state === "untrusted" && spec.unavailable?.code === "untrusted"
        ? {
          untrusted: {
            file: spec.unavailable.file,
            trustCommand: spec.unavailable.trustCommand,
            runs: spec.unavailable.runs,
            runnable: spec.unavailable.runnable,
            reason: spec.unavailable.reason,
          },
        }
        : {}),
    };
  });
  // Before any other output: a misspelt "mcpServers" explains the "No servers" below.
  const warnings = await ctx.warnings();
  for (const warning of warnings) ctx.io.err(`warning: ${warning}\n`);
  if (await ctx.json()) {
    ctx.io.out(
      JSON.stringify(
        {
          config: config.path,
          ...(config.path === null ? { searched: config.searched ?? [] } : {}),
          namespaces: rows,
          unselected,
          problems,
          warnings,
        },
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  const others = unselected.length
    ? `${unselected.length} more outside the selected profiles (${unselected.join(", ")}); ` +
      "`--profile <name>` or `--all-profiles` shows them.\n"
    : "";
  if (rows.length === 0 && others) {
    ctx.io.out(`No servers selected: ${others}`);
    return 0;
  }
  if (rows.length === 0) {
    ctx.io.out(
      config.path
        ? `No servers in ${config.path}. Add one under "mcpServers".\n`
        : `No servers: ${noConfigMessage(config.searched ?? [], ctx.cwd)}.\n`,
    );
    return 0;
  }
  const width = Math.max(40, (Number(ctx.env.COLUMNS) || 120) - 60);
  ctx.io.out(renderTable(
    ["NAMESPACE", "TOOLS", "SHARING", "SCOPE", "LIVE", "STATE", "DESCRIPTION"],
    rows.map((r) => [
      r.namespace,
      String(r.tools),
      r.sharing,
      r.scope,
      String(r.live),
      r.state,
      // An untrusted server is explained below the table, whole.
      truncate((r.untrusted ? undefined : r.error) ?? r.description, width),
    ]),
  ));
  // Tools a server lists but mcpx cannot call are said once, briefly: `ls` runs often and an
  // agent pays for every line (`ls --json` and `types` give each reason).
  const unusable = problems.filter((p) => p.includes(" is unusable and left out: "));
  const said = new Set(unusable);
  for (const problem of problems) {
    if (!said.has(problem)) ctx.io.err(`warning: ${problem}\n`);
  }
  if (unusable.length) {
    const names = unusable.map((p) => p.match(/^server "([^"]+)": tool "([^"]+)"/))
      .map((m) => (m ? `${m[1]}.${m[2]}` : "?"));
    ctx.io.err(
      `note: ${names.length} tool${names.length > 1 ? "s" : ""} left out as unusable (${
        names.join(", ")
      }); \`mcpx ls --json\` says why\n`,
    );
  }
  if (others) ctx.io.out(`\n${others}`);
  const errors = rows.some((r) => r.state === "error");
  // Said whole, once: the table cuts sentences, and this is the part that matters.
  const untrusted = shown.filter((s) => !s.disabled && s.unavailable?.code === "untrusted");
  const first = untrusted[0]?.unavailable;
  if (first?.code === "untrusted") {
    const width = Math.max(...untrusted.map((s) => s.namespace.length));
    const lines = untrusted.map((s) =>
      `  ${s.namespace.padEnd(width)}  ${
        s.unavailable?.code === "untrusted" ? s.unavailable.runs : ""
      }`
    );
    ctx.io.out(
      `\n${first.file} is a project's configuration, not trusted with what these servers run, ` +
        `so mcpx starts none of them:\n${lines.join("\n")}\nReview it, then run ` +
        `\`${first.trustCommand}\`. An agent should ask its user to run that, not run it itself.\n`,
    );
  }
  ctx.io.out(
    // Search first: its last line is the `mcpx types` command for just its hits (the browser
    // walk in docs/browser-walk.md costs a quarter of loading the whole namespace).
    `\nNext: \`mcpx search <words>\` finds tools and prints the \`mcpx types\` command for them.` +
      (errors ? " `mcpx status` shows why a server failed." : "") + "\n",
  );
  return 0;
}

async function liveCounts(
  ctx: CliContext,
): Promise<Record<string, { live: number; failure?: string }>> {
  try {
    return await requestDaemon(await ctx.existingDaemonSocket(), "live", {}, { timeoutMs: 1000 });
  } catch (error) {
    // A socket directory another user controls is said, not passed over (decision 0014).
    if (error instanceof UnsafeDirectoryError) throw error;
    return {};
  }
}

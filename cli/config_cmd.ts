/**
 * `mcpx config`: every resolved setting, its value and where it came from;
 * `--schema` prints the declarations (spec 000, "One declaration per setting").
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { type ResolvedSetting, SETTINGS } from "../config/settings.ts";
import { renderSchema } from "../config/setting_schema.ts";
import { describeSearch } from "../config/discover.ts";
import { defaultPathSource } from "../config/paths.ts";
import type { InputOf } from "../ops/op.ts";
import type { config } from "../ops/discovery_ops.ts";

/** A setting as `mcpx config` shows it; `source` may also be `default ($XDG_STATE_HOME/mcpx)`. */
type ShownSetting = Omit<ResolvedSetting, "source"> & { source: string };

/**
 * `paths.state` and `paths.cache` as they are used: the directory of
 * `ctx.paths()` and where it came from. A file's value is ignored there (the
 * warning says so) and the built-in default is a directory, not `""`.
 */
function inUse(ctx: CliContext, resolved: ResolvedSetting): ShownSetting {
  const name = resolved.name;
  if (name !== "paths.state" && name !== "paths.cache") return resolved;
  const value = ctx.paths()[name === "paths.state" ? "stateDir" : "cacheDir"];
  const read = (source: string) => source.startsWith("env:") || source.startsWith("flag:");
  if (read(resolved.source)) {
    return { ...resolved, value, overrode: resolved.overrode.filter((o) => read(o.source)) };
  }
  return { name, value, raw: value, source: defaultPathSource(name, ctx.env), overrode: [] };
}

export async function run(
  ctx: CliContext,
  options: InputOf<typeof config>,
): Promise<number> {
  const json = await ctx.json();
  if (options.schema) {
    const schema = renderSchema({ plumbing: options.plumbing === true });
    if (json) {
      ctx.io.out(JSON.stringify({ settings: schema }, null, 2) + "\n");
      return 0;
    }
    ctx.io.out(renderTable(
      ["SETTING", "TYPE", "DEFAULT", "ENV", "FLAG", "HELP"],
      schema.map((
        s,
      ) => [
        s.name,
        s.type,
        s.default === "" ? '""' : s.default,
        s.env[0],
        s.flags.join(" "),
        s.help,
      ]),
    ));
    return 0;
  }
  const config = await ctx.config();
  const settings = await ctx.settings();
  const shown = SETTINGS.filter((s) => options.plumbing || !s.plumbing);
  if (json) {
    ctx.io.out(
      JSON.stringify(
        {
          config: config.path,
          ...(config.path === null ? { searched: config.searched ?? [] } : {}),
          fingerprint: config.fingerprint,
          paths: ctx.paths(),
          settings: shown.map((s) => inUse(ctx, settings.values[s.name])),
          warnings: await ctx.warnings(),
        },
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  const where = config.path ?? `(none found: ${describeSearch(config.searched ?? [])})`;
  ctx.io.out(`config: ${where}  fingerprint: ${config.fingerprint}\n\n`);
  ctx.io.out(renderTable(
    ["SETTING", "VALUE", "SOURCE", "OVERRODE"],
    shown.map((s) => {
      const r = inUse(ctx, settings.values[s.name]);
      const overrode = r.overrode.filter((o) => o.source !== "default" || r.source !== "default")
        .map((o) => `${JSON.stringify(o.value)} (${o.source})`).join(", ");
      return [s.name, JSON.stringify(r.value), r.source, truncate(overrode, 60)];
    }),
  ));
  for (const warning of await ctx.warnings()) {
    ctx.io.err(`warning: ${warning}\n`);
  }
  return 0;
}

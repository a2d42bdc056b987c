/**
 * `mcpx config`: every resolved setting, its value and where it came from;
 * `--schema` prints the declarations (spec 000, "One declaration per
 * setting"; the op is ops/config.ts).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { describeSearch } from "../config/discover.ts";
import { handle } from "../ops/config.ts";
import type { InputOf } from "../ops/op.ts";
import type { config } from "../ops/discovery_ops.ts";

/**
 * Runs `mcpx config`: the op's answer as JSON, or as a table (warnings on stderr after it).
 *
 * @returns Exit code 0.
 * @throws {ConfigError} When the configuration cannot be read (not with `--schema`).
 */
export async function run(
  ctx: CliContext,
  options: InputOf<typeof config>,
): Promise<number> {
  const output = await handle(options, ctx);
  if (await ctx.json()) {
    printJson(ctx.io, output);
    return 0;
  }
  if (!("fingerprint" in output)) {
    ctx.io.out(renderTable(
      ["SETTING", "TYPE", "DEFAULT", "ENV", "FLAG", "HELP"],
      output.settings.map((
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
  const where = output.config ?? `(none found: ${describeSearch(output.searched ?? [])})`;
  ctx.io.out(`config: ${where}  fingerprint: ${output.fingerprint}\n\n`);
  ctx.io.out(renderTable(
    ["SETTING", "VALUE", "SOURCE", "OVERRODE"],
    output.settings.map((r) => {
      const overrode = r.overrode.filter((o) => o.source !== "default" || r.source !== "default")
        .map((o) => `${JSON.stringify(o.value)} (${o.source})`).join(", ");
      return [r.name, JSON.stringify(r.value), r.source, truncate(overrode, 60)];
    }),
  ));
  for (const warning of output.warnings) {
    ctx.io.err(`warning: ${warning}\n`);
  }
  return 0;
}

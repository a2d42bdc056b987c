/**
 * `mcpx config`: every resolved setting, its value and where it came from;
 * `--schema` prints the declarations (spec 000, "One declaration per
 * setting"; the op is ops/config.ts).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { Text } from "../commands.ts";
import { renderTable, truncate } from "../table.ts";
import { describeSearch } from "../../config/discover.ts";
import { type ConfigOutput, handle as configOf } from "../../ops/config.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import type { InputOf } from "../../ops/op.ts";
import type { config } from "../../ops/discovery_ops.ts";

/**
 * Runs `mcpx config`: the op's answer (ops/config.ts), the resolved settings
 * or with `--schema` their declarations.
 *
 * @throws {ConfigError} When the configuration cannot be read (not with `--schema`).
 */
export async function handle(
  ctx: CliContext,
  options: InputOf<typeof config>,
): Promise<Answered<ConfigOutput>> {
  return ok(await configOf(options, ctx));
}

/**
 * The declarations as a table; or the file in use, its fingerprint and the
 * settings as a table, the configuration's warnings on stderr after it.
 */
export function text(output: ConfigOutput): Text {
  if (!("fingerprint" in output)) {
    return renderTable(
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
    );
  }
  const where = output.config ?? `(none found: ${describeSearch(output.searched ?? [])})`;
  const out = `config: ${where}  fingerprint: ${output.fingerprint}\n\n` + renderTable(
    ["SETTING", "VALUE", "SOURCE", "OVERRODE"],
    output.settings.map((r) => {
      const overrode = r.overrode.filter((o) => o.source !== "default" || r.source !== "default")
        .map((o) => `${JSON.stringify(o.value)} (${o.source})`).join(", ");
      return [r.name, JSON.stringify(r.value), r.source, truncate(overrode, 60)];
    }),
  );
  return { out, err: output.warnings.map((warning) => `warning: ${warning}\n`).join("") };
}

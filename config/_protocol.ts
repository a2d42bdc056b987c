/**
 * Reading a server's protocol mode: `mcpx.protocol` (mcpx's own key) or spec
 * 002's `protocol: { mode }` on the entry, read as a mode (`stateful` →
 * `legacy`, `auto` → `preferModern`, since 002's auto tries 2026-07-28
 * first, `stateless` → `modern`). Private to config/.
 *
 * Source: issue 12, "Both eras"; spec 002, "MCP protocol modes".
 *
 * @module
 */

import { PROTOCOL_MODES, type ProtocolMode } from "./types.ts";
import { describeValue } from "./_describe.ts";
import type { JsonPath, Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";
import { isObject, type Obj } from "./_read.ts";

/** Spec 002's `protocol.mode` values and the mode each is read as. */
export const SPEC_002_MODES: Readonly<Record<string, ProtocolMode>> = {
  stateful: "legacy",
  auto: "preferModern",
  stateless: "modern",
};

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/**
 * The mode the entry sets, or undefined when it sets none. A bad value, or
 * the two forms naming different modes, is a problem naming the value and
 * the accepted ones.
 *
 * @param entry The server entry (`protocol` is read from it).
 * @param mcpx Its `mcpx` block (`protocol` is read from it).
 * @param at The entry's JSON path.
 * @param problems Where problems go.
 */
export function readProtocol(
  entry: Obj,
  mcpx: Obj,
  at: JsonPath,
  problems: Problems,
): ProtocolMode | undefined {
  let own: ProtocolMode | undefined;
  if (mcpx.protocol !== undefined) {
    const v = mcpx.protocol;
    if (typeof v === "string" && (PROTOCOL_MODES as readonly string[]).includes(v)) {
      own = v as ProtocolMode;
    } else {
      problems.add(
        [...at, "mcpx", "protocol"],
        `must be one of ${quoted(PROTOCOL_MODES)}, got ${describeValue(v)}${
          typeof v === "string" ? didYouMean(v, PROTOCOL_MODES) : ""
        }; "auto" (the default) tries initialize first, then 2026-07-28`,
      );
    }
  }
  let fromSpec002: ProtocolMode | undefined;
  if (entry.protocol !== undefined) {
    const block = entry.protocol;
    const keys = Object.keys(SPEC_002_MODES);
    if (!isObject(block) || block.mode === undefined) {
      problems.add(
        [...at, "protocol"],
        `must be an object with "mode" (${quoted(keys)}), got ${describeValue(block)}; ` +
          `write e.g. { "mode": "stateful" }, or use "mcpx": { "protocol": "legacy" }`,
      );
    } else if (typeof block.mode === "string" && Object.hasOwn(SPEC_002_MODES, block.mode)) {
      fromSpec002 = SPEC_002_MODES[block.mode];
    } else {
      problems.add(
        [...at, "protocol", "mode"],
        `must be one of ${quoted(keys)}, got ${describeValue(block.mode)}${
          typeof block.mode === "string" ? didYouMean(block.mode, keys) : ""
        }; or set "mcpx": { "protocol": … } to one of ${quoted(PROTOCOL_MODES)}`,
      );
    }
  }
  if (own && fromSpec002 && own !== fromSpec002) {
    problems.add(
      [...at, "mcpx", "protocol"],
      `is "${own}" but "protocol": { "mode": ${
        describeValue((entry.protocol as Obj).mode)
      } } means "${fromSpec002}"; remove one of them`,
    );
  }
  return own ?? fromSpec002;
}

/**
 * Validating one entry of `mcpServers` into a {@link ServerSpec}: the keys
 * other MCP hosts write (`command`, `args`, `env`, `cwd`, `url`, `headers`,
 * `type`/`transport`, `disabled`) plus the optional `mcpx` block.
 * Private to config/.
 *
 * Source: spec 000, "Configuration", "Sharing and scope", "Profiles and aliases".
 *
 * @module
 */

import { isIdentifier, toIdentifier } from "./identifiers.ts";
import { poolId } from "./pool_id.ts";
import {
  DEFAULT_POOL,
  DEFAULT_SCOPED_MAX,
  listingIdOf,
  type PoolSettings,
  type ServerSpec,
} from "./types.ts";
import { unsetVariablesMessage } from "./expand.ts";
import { describeValue } from "./_describe.ts";
import { POOL_KEYS, readPoolKeys } from "./_pool.ts";
import { formatPath, type JsonPath, type Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";
import { isObject, type Obj, readBool, readStringArray } from "./_read.ts";
import { parseProcess, PROCESS_KEYS, type ProcessFields, processFields } from "./_process.ts";
import { combineToolLists, readToolLists, TOOL_LIST_KEYS, type ToolLists } from "./_tool_lists.ts";
import { setOwn } from "../core/own.ts";
import { readProtocol } from "./_protocol.ts";
import { readRoots } from "./_roots.ts";
import type { UnsetReference } from "./_process.ts";
import { readLogLevel } from "./_log_level.ts";
import { readLifecycle, SPEC_002_ENTRY_KEYS, withSpec002ToolLists } from "./_spec002.ts";

/** Keys a server entry may hold outside its `mcpx` block. Others only warn. */
export const ENTRY_KEYS: readonly string[] = [
  ...PROCESS_KEYS,
  "disabled",
  "aliasOf",
  "mcpx",
  // Spec 002's `protocol: { mode }` (config/_protocol.ts).
  "protocol",
  // Spec 002's allowedTools, disabledTools and lifecycle (config/_spec002.ts).
  ...SPEC_002_ENTRY_KEYS,
];

/** Keys of the `mcpx` block. Others are errors. */
export const MCPX_KEYS: readonly string[] = [
  "namespace",
  "description",
  "disabled",
  "tags",
  "toolTags",
  ...TOOL_LIST_KEYS,
  "profiles",
  "default",
  "protocol",
  "roots",
  "logLevel",
  ...POOL_KEYS,
];

/**
 * The fix for a `mode` key, in a server's `mcpx` block or the top-level `pool`
 * block: it was split into two keys (spec 000, "Sharing and scope").
 */
export const MODE_REPLACED =
  `"mode" was split into "sharing" ("shared" or "exclusive": how many callers use one ` +
  `process at once) and "scope" (what a process is keyed by, e.g. "global" or "session"); ` +
  `write those instead`;

/** What {@link parseServer} needs besides the entry. */
export interface ServerContext {
  file: string | null;
  /** The configuration file's real directory (config/_process.ts `ProcessContext.dir`). */
  dir: string | null;
  env: Record<string, string | undefined>;
  problems: Problems;
  warnings: string[];
  /** Valid settings of the top-level `pool` block. */
  poolDefaults: Partial<PoolSettings>;
  /** `pool.default`: whether a server whose block says nothing is in the default set (true). */
  defaultSelected?: boolean;
  /** The tool lists of the top-level `pool` block (`tools`, `extraIncludeTools`, `excludeTools`). */
  poolTools?: ToolLists;
}

/**
 * Validates one server entry. Problems go to `ctx.problems`, warnings to `ctx.warnings`.
 *
 * An alias (`"aliasOf"`, resolved by the caller) is given its target: it
 * takes the target's process (command, args, env, cwd, url, headers,
 * transport) and may not set those keys itself; everything in its `mcpx`
 * block (namespace, description, tags, tool filters, profiles, pool
 * settings) is its own, and its description falls back to the target's.
 * Spec 000, "Profiles and aliases".
 *
 * @param name The key under `mcpServers`.
 * @param entry Its value.
 * @param ctx File, environment, collectors, pool defaults.
 * @param target For an alias, the parsed server it exposes again.
 * @returns The spec, or undefined when the entry had any problem.
 */
export function parseServer(
  name: string,
  entry: unknown,
  ctx: ServerContext,
  target?: ServerSpec,
): ServerSpec | undefined {
  const { problems } = ctx;
  const before = problems.list.length;
  const at: JsonPath = ["mcpServers", name];
  if (name === "") {
    problems.add(at, `a server name must not be empty, got ""; give the server a name`);
  }
  if (!isObject(entry)) {
    problems.add(
      at,
      `must be an object, got ${describeValue(entry)}; write e.g. ` +
        `{ "command": "npx", "args": ["-y", "some-mcp-server"] } or { "url": "https://…/mcp" }`,
    );
    return undefined;
  }

  for (const key of Object.keys(entry)) {
    if (ENTRY_KEYS.includes(key)) continue;
    const hint = MCPX_KEYS.includes(key)
      ? `; did you mean \`mcpx.${key}\`?`
      : didYouMean(key, ENTRY_KEYS);
    ctx.warnings.push(
      `config ${ctx.file ?? "(none)"}: ${
        formatPath([...at, key])
      }: not used by mcpx, ignored${hint}`,
    );
  }

  let mcpx: Obj = {};
  if (entry.mcpx !== undefined) {
    if (isObject(entry.mcpx)) mcpx = entry.mcpx;
    else {
      problems.add(
        [...at, "mcpx"],
        `must be an object, got ${describeValue(entry.mcpx)}; write e.g. ` +
          `{ "sharing": "exclusive", "scope": "session" }`,
      );
    }
  }
  for (const key of Object.keys(mcpx)) {
    if (MCPX_KEYS.includes(key)) continue;
    const fix = key === "mode"
      ? `; ${MODE_REPLACED}`
      : `${didYouMean(key, MCPX_KEYS) || `; remove it`} (accepted: ${MCPX_KEYS.join(", ")})`;
    problems.add([...at, "mcpx", key], `unknown key, got ${describeValue(mcpx[key])}${fix}`);
  }

  const disabledHere = readBool(entry, "disabled", at, problems);
  const disabledInMcpx = readBool(mcpx, "disabled", [...at, "mcpx"], problems);
  const disabled = disabledHere || disabledInMcpx;

  // Where the process comes from: the entry's own keys, or an alias's target.
  let process: ProcessFields;
  let unavailable = target?.unavailable;
  const unset: UnsetReference[] = [];
  if (target) {
    for (const key of PROCESS_KEYS) {
      if (entry[key] === undefined) continue;
      problems.add(
        [...at, key],
        `is not allowed on an alias, got ${describeValue(entry[key])}; an alias runs its ` +
          `target ${JSON.stringify(target.name)} as that entry starts it: remove ${
            JSON.stringify(key)
          } ` +
          `here, or remove "aliasOf" to make this a server of its own`,
      );
    }
    process = processFields(target);
  } else {
    const { unset: unsetInProcess, ...fields } = parseProcess(name, entry, at, ctx);
    process = fields;
    unset.push(...unsetInProcess);
  }

  // The mcpx block.
  const mcpxAt: JsonPath = [...at, "mcpx"];
  const { roots, unset: unsetInRoots } = readRoots(name, mcpx, mcpxAt, ctx);
  unset.push(...unsetInRoots);
  if (unset.length) {
    unavailable = {
      code: "unset-variable",
      message: unsetVariablesMessage(
        unset.map((u) => ({ variable: u.variable, path: formatPath(u.path) })),
        name,
      ),
      variables: [...new Set(unset.map((u) => u.variable))],
    };
  }
  let namespace = name === "" ? "_" : toIdentifier(name);
  if (mcpx.namespace !== undefined) {
    const v = mcpx.namespace;
    if (typeof v === "string" && isIdentifier(v)) namespace = v;
    else {
      problems.add(
        [...mcpxAt, "namespace"],
        `must be a valid identifier (letters, digits, _ and $, not starting with a digit, not a ` +
          `reserved word), got ${describeValue(v)}; use e.g. ${
            JSON.stringify(
              typeof v === "string" && v !== "" ? toIdentifier(v) : toIdentifier(name || "server"),
            )
          }`,
      );
    }
  }
  let description: string | undefined;
  if (mcpx.description !== undefined) {
    if (typeof mcpx.description === "string") description = mcpx.description;
    else {
      problems.add(
        [...mcpxAt, "description"],
        `must be a string, got ${
          describeValue(mcpx.description)
        }; write one line saying what the server is for`,
      );
    }
  }
  const tags = readStringArray(mcpx, "tags", mcpxAt, problems, `e.g. ["web", "browser"]`) ?? [];
  const toolTags: Record<string, string[]> = {};
  if (mcpx.toolTags !== undefined) {
    if (!isObject(mcpx.toolTags)) {
      problems.add(
        [...mcpxAt, "toolTags"],
        `must be an object of tool name to tag list, got ${describeValue(mcpx.toolTags)}; write ` +
          `e.g. { "take_screenshot": ["image"] }`,
      );
    } else {
      for (const tool of Object.keys(mcpx.toolTags)) {
        const list = readStringArray(
          mcpx.toolTags,
          tool,
          [...mcpxAt, "toolTags"],
          problems,
          `e.g. ["image"]`,
        );
        if (list) setOwn(toolTags, tool, list);
      }
    }
  }
  const lists = combineToolLists(
    ctx.poolTools,
    withSpec002ToolLists(entry, at, readToolLists(mcpx, mcpxAt, problems), problems),
  );
  if (lists.unused) {
    ctx.warnings.push(
      `config ${ctx.file ?? "(none)"}: ${
        formatPath([...mcpxAt, "extraIncludeTools"])
      }: adds to an include list, but neither this block nor the pool block sets "tools", so ` +
        `every tool is shown already and it does nothing; set "tools" or remove it`,
    );
  }
  // An alias is seen where its target is, unless its own block says otherwise
  // (spec 000, "Profiles and aliases"): a browser kept out of the default set
  // must not come back in under a second name.
  const profiles = readStringArray(mcpx, "profiles", mcpxAt, problems, `e.g. ["web"]`) ??
    [...(target?.profiles ?? [])];
  profiles.forEach((profile, i) => {
    if (profile.trim() === "" || profile.includes(",")) {
      problems.add(
        [...mcpxAt, "profiles", i],
        `must be a profile name without commas, got ${describeValue(profile)}; write e.g. "web"`,
      );
    }
  });
  let isDefault = target?.default ?? ctx.defaultSelected ?? true;
  if (mcpx.default !== undefined) {
    if (typeof mcpx.default === "boolean") isDefault = mcpx.default;
    else {
      problems.add(
        [...mcpxAt, "default"],
        `must be true or false, got ${describeValue(mcpx.default)}; write false to show the ` +
          `server only under --profile (one of its "profiles") or --all-profiles`,
      );
    }
  }

  // An alias speaks to its target's process in the target's era unless it says otherwise.
  const protocol = readProtocol(entry, mcpx, at, problems) ?? target?.protocol;

  // An alias asks its own level: it is a block of its own (its process's messages arrive either way).
  const logLevel = readLogLevel(mcpx, mcpxAt, problems);

  const own = readPoolKeys(mcpx, mcpxAt, problems);
  // Spec 002's keep-alive lifetime is the idle timeout mcpx's daemon already applies.
  const lifecycleIdleMs = readLifecycle(entry, at, own.idleTimeoutMs, problems);
  if (lifecycleIdleMs !== undefined) own.idleTimeoutMs ??= lifecycleIdleMs;
  const pool: PoolSettings = { ...DEFAULT_POOL, ...ctx.poolDefaults, ...own };
  // Held only when true: a pool that never sets it keeps its poolId.
  if (!pool.resetTimeoutOnProgress) delete pool.resetTimeoutOnProgress;
  // One instance is the right bound for a global server; a server keyed by
  // session, cwd, … needs one per key, so its unset `max` allows several.
  if (own.max === undefined && ctx.poolDefaults.max === undefined && pool.scope !== "global") {
    pool.max = DEFAULT_SCOPED_MAX;
  }
  if (pool.min > pool.max && (own.min !== undefined || own.max !== undefined)) {
    if (own.min !== undefined) {
      problems.add(
        [...mcpxAt, "min"],
        `must be ≤ max (${pool.max}), got ${pool.min}; lower min or raise max`,
      );
    } else {
      problems.add(
        [...mcpxAt, "max"],
        `must be ≥ min (${pool.min}, from the pool block), got ${pool.max}; raise max or lower pool.min`,
      );
    }
  }

  if (problems.list.length > before) return undefined;
  const shownAs = description ?? target?.description;
  const spec: ServerSpec = {
    name,
    namespace,
    ...(shownAs !== undefined ? { description: shownAs } : {}),
    disabled,
    tags,
    toolTags,
    toolFilter: lists.filter,
    ...process,
    // An alias starts as its target does.
    ...((target ? target.cwdDefaulted : process.transport === "stdio" && entry.cwd === undefined)
      ? { cwdDefaulted: true as const }
      : {}),
    pool,
    ...(protocol ? { protocol } : {}),
    // An alias offers its target's roots unless it names its own.
    ...(roots ?? target?.roots ? { roots: roots ?? target!.roots } : {}),
    ...(logLevel ? { logLevel } : {}),
    profiles,
    default: isDefault,
    ...(target
      ? {
        aliasOf: { server: target.name, poolId: target.poolId, listingId: target.listingId },
      }
      : {}),
    ...(unavailable ? { unavailable } : {}),
    poolId: "",
    listingId: "",
  };
  spec.poolId = poolId(spec);
  spec.listingId = listingIdOf(spec);
  return spec;
}

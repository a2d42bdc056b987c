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

import { dirname, isAbsolute, resolve } from "./posix_path.ts";
import { isIdentifier, toIdentifier } from "./identifiers.ts";
import { poolId } from "./pool_id.ts";
import {
  DEFAULT_POOL,
  DEFAULT_SCOPED_MAX,
  type PoolSettings,
  type ServerSpec,
  type TransportKind,
} from "./types.ts";
import { expandVars, malformedReferenceMessage, unsetVariableMessage } from "./expand.ts";
import { describeValue } from "./_describe.ts";
import { POOL_KEYS, readPoolKeys } from "./_pool.ts";
import { formatPath, type JsonPath, type Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";

/** Keys a server entry may hold outside its `mcpx` block. Others only warn. */
export const ENTRY_KEYS: readonly string[] = [
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "transport",
  "type",
  "disabled",
  "aliasOf",
  "mcpx",
];

/** Keys of the `mcpx` block. Others are errors. */
export const MCPX_KEYS: readonly string[] = [
  "namespace",
  "description",
  "disabled",
  "tags",
  "toolTags",
  "tools",
  "excludeTools",
  "profiles",
  "default",
  ...POOL_KEYS,
];

const TRANSPORTS: Record<string, TransportKind> = {
  stdio: "stdio",
  http: "http",
  sse: "sse",
  "streamable-http": "http",
  streamableHttp: "http",
};

/** What {@link parseServer} needs besides the entry. */
export interface ServerContext {
  file: string | null;
  env: Record<string, string | undefined>;
  problems: Problems;
  warnings: string[];
  /** Valid settings of the top-level `pool` block. */
  poolDefaults: Partial<PoolSettings>;
  /** `pool.default`: whether a server whose block says nothing is in the default set (true). */
  defaultSelected?: boolean;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

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
      ? `; "mode" was split into "sharing" ("shared"|"exclusive") and "scope"; write those instead`
      : `${didYouMean(key, MCPX_KEYS) || `; remove it`} (accepted: ${MCPX_KEYS.join(", ")})`;
    problems.add([...at, "mcpx", key], `unknown key, got ${describeValue(mcpx[key])}${fix}`);
  }

  const disabledHere = readBool(entry, "disabled", at, problems);
  const disabledInMcpx = readBool(mcpx, "disabled", [...at, "mcpx"], problems);
  const disabled = disabledHere || disabledInMcpx;

  // Where the process comes from: the entry's own keys, or an alias's target.
  let process: ProcessFields;
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
    const { transport, command, args, env, cwd, url, headers } = target;
    process = { transport, command, args, env, cwd, url, headers };
  } else {
    process = parseProcess(name, entry, at, ctx, disabled);
  }
  const { transport, command, args, env, cwd, url, headers } = process;

  // The mcpx block.
  const mcpxAt: JsonPath = [...at, "mcpx"];
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
        if (list) toolTags[tool] = list;
      }
    }
  }
  const include = readPatterns(mcpx, "tools", mcpxAt, problems);
  const exclude = readPatterns(mcpx, "excludeTools", mcpxAt, problems) ?? [];
  const profiles = readStringArray(mcpx, "profiles", mcpxAt, problems, `e.g. ["web"]`) ?? [];
  profiles.forEach((profile, i) => {
    if (profile.trim() === "" || profile.includes(",")) {
      problems.add(
        [...mcpxAt, "profiles", i],
        `must be a profile name without commas, got ${describeValue(profile)}; write e.g. "web"`,
      );
    }
  });
  let isDefault = ctx.defaultSelected ?? true;
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

  const own = readPoolKeys(mcpx, mcpxAt, problems);
  const pool: PoolSettings = { ...DEFAULT_POOL, ...ctx.poolDefaults, ...own };
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
    toolFilter: include !== undefined ? { include, exclude } : { exclude },
    transport,
    ...(command !== undefined ? { command } : {}),
    args,
    env,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(url !== undefined ? { url } : {}),
    headers,
    pool,
    profiles,
    default: isDefault,
    ...(target ? { aliasOf: { server: target.name, poolId: target.poolId } } : {}),
    poolId: "",
  };
  spec.poolId = poolId(spec);
  return spec;
}

/** The fields of a {@link ServerSpec} that say which program runs and how it is reached. */
type ProcessFields = Pick<
  ServerSpec,
  "transport" | "command" | "args" | "env" | "cwd" | "url" | "headers"
>;

/** Entry keys that say which process runs; an alias takes all of them from its target. */
const PROCESS_KEYS = ["command", "args", "env", "cwd", "url", "headers", "transport", "type"];

/** Reads and expands the entry's process keys (`command`/`url`, `args`, `env`, `cwd`, `headers`, transport). */
function parseProcess(
  name: string,
  entry: Obj,
  at: JsonPath,
  ctx: ServerContext,
  disabled: boolean,
): ProcessFields {
  const { problems } = ctx;
  // Strings that expand `${VAR}`. A disabled server's unset variables are not problems; a
  // malformed `${` is, since it is in the file whatever the environment holds.
  const expand = (value: string, path: JsonPath): string => {
    const { value: out, missing, malformed } = expandVars(value, ctx.env);
    for (const m of malformed) problems.add(path, malformedReferenceMessage(m, value, name));
    if (!disabled) {
      for (const variable of missing) problems.add(path, unsetVariableMessage(variable, name));
    }
    return out;
  };

  // Transport.
  const declared = readTransport(entry, "type", at, problems);
  const declaredTransport = readTransport(entry, "transport", at, problems);
  if (declared && declaredTransport && declared !== declaredTransport) {
    problems.add(
      [...at, "transport"],
      `says ${describeValue(entry.transport)} but "type" says ${describeValue(entry.type)}; ` +
        `remove one of them`,
    );
  }
  const wanted = declaredTransport ?? declared;

  let command: string | undefined;
  if (entry.command !== undefined) {
    if (typeof entry.command === "string" && entry.command.trim() !== "") {
      command = expand(entry.command, [...at, "command"]);
    } else {
      problems.add(
        [...at, "command"],
        `must be a non-empty string, got ${describeValue(entry.command)}; set it to the program ` +
          `that starts the server, e.g. "npx"`,
      );
    }
  }
  let url: string | undefined;
  if (entry.url !== undefined) {
    if (typeof entry.url === "string") {
      const expanded = expand(entry.url, [...at, "url"]);
      if (expandVars(entry.url, ctx.env).missing.length === 0) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(expanded);
        } catch { /* reported below */ }
        if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
          problems.add(
            [...at, "url"],
            `must be an http:// or https:// URL, got ${describeValue(expanded)}; write e.g. ` +
              `"https://example.com/mcp"`,
          );
        }
      }
      url = expanded;
    } else {
      problems.add(
        [...at, "url"],
        `must be a string, got ${describeValue(entry.url)}; write e.g. "https://example.com/mcp"`,
      );
    }
  }
  if (entry.command !== undefined && entry.url !== undefined) {
    problems.add(
      at,
      `has both "command" and "url", got command ${describeValue(entry.command)} and url ` +
        `${describeValue(entry.url)}; keep "command" for a local server or "url" for a remote one`,
    );
  } else if (entry.command === undefined && entry.url === undefined) {
    problems.add(
      at,
      `has neither "command" nor "url", got keys ${describeValue(Object.keys(entry))}; add ` +
        `"command" (a program to start) or "url" (a remote server)`,
    );
  } else if (wanted === "stdio" && entry.url !== undefined) {
    problems.add(
      [...at, entry.transport !== undefined ? "transport" : "type"],
      `is "stdio", which needs "command", but the entry has "url"; use "http" or "sse", or ` +
        `replace "url" with "command"`,
    );
  } else if (wanted && wanted !== "stdio" && entry.command !== undefined) {
    problems.add(
      [...at, entry.transport !== undefined ? "transport" : "type"],
      `is ${describeValue(wanted)}, which needs "url", but the entry has "command"; use "stdio" ` +
        `or replace "command" with "url"`,
    );
  }
  const transport: TransportKind = wanted ??
    (url !== undefined ? (/\/sse\/?$/.test(safePathname(url)) ? "sse" : "http") : "stdio");

  const args = readStringArray(entry, "args", at, problems, `e.g. ["-y", "some-mcp-server"]`)
    ?.map((a, i) => expand(a, [...at, "args", i])) ?? [];
  const env = mapValues(
    readStringMap(entry, "env", at, problems),
    (v, k) => expand(v, [...at, "env", k]),
  );
  const headers = mapValues(
    readStringMap(entry, "headers", at, problems),
    (v, k) => expand(v, [...at, "headers", k]),
  );
  let cwd: string | undefined;
  if (entry.cwd !== undefined) {
    if (typeof entry.cwd === "string" && entry.cwd !== "") {
      cwd = expand(entry.cwd, [...at, "cwd"]);
      if (!isAbsolute(cwd) && ctx.file !== null) cwd = resolve(dirname(ctx.file), cwd);
    } else {
      problems.add(
        [...at, "cwd"],
        `must be a non-empty string, got ${describeValue(entry.cwd)}; set the directory the ` +
          `server starts in (relative to the config file), e.g. "."`,
      );
    }
  }
  if (transport !== "stdio") {
    for (const key of ["args", "env", "cwd"]) {
      if (entry[key] !== undefined) {
        ctx.warnings.push(
          `config ${ctx.file ?? "(none)"}: ${formatPath([...at, key])}: ignored for a remote ` +
            `(${transport}) server`,
        );
      }
    }
  } else if (entry.headers !== undefined) {
    ctx.warnings.push(
      `config ${ctx.file ?? "(none)"}: ${
        formatPath([...at, "headers"])
      }: ignored for a stdio server`,
    );
  }
  return {
    transport,
    ...(command !== undefined ? { command } : {}),
    args,
    env,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(url !== undefined ? { url } : {}),
    headers,
  };
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

function readBool(block: Obj, key: string, at: JsonPath, problems: Problems): boolean {
  const v = block[key];
  if (v === undefined) return false;
  if (typeof v === "boolean") return v;
  problems.add(
    [...at, key],
    `must be true or false, got ${describeValue(v)}; write ${key}: true to turn the server off`,
  );
  return false;
}

function readTransport(entry: Obj, key: "type" | "transport", at: JsonPath, problems: Problems) {
  const v = entry[key];
  if (v === undefined) return undefined;
  if (typeof v === "string" && Object.hasOwn(TRANSPORTS, v)) return TRANSPORTS[v];
  problems.add(
    [...at, key],
    `must be one of ${Object.keys(TRANSPORTS).map((t) => `"${t}"`).join(", ")}, got ${
      describeValue(v)
    }${
      typeof v === "string" ? didYouMean(v, Object.keys(TRANSPORTS)) : ""
    }; or leave it out to infer it from "command"/"url"`,
  );
  return undefined;
}

function readStringArray(
  block: Obj,
  key: string,
  at: JsonPath,
  problems: Problems,
  example: string,
) {
  const v = block[key];
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) {
    problems.add(
      [...at, key],
      `must be an array of strings, got ${describeValue(v)}; write ${example}`,
    );
    return undefined;
  }
  let ok = true;
  v.forEach((item, i) => {
    if (typeof item !== "string") {
      ok = false;
      problems.add(
        [...at, key, i],
        `must be a string, got ${describeValue(item)}; quote it: ${
          JSON.stringify(JSON.stringify(item) ?? "")
        }`,
      );
    }
  });
  return ok ? (v as string[]) : undefined;
}

function readStringMap(
  block: Obj,
  key: string,
  at: JsonPath,
  problems: Problems,
): Record<string, string> {
  const v = block[key];
  if (v === undefined) return {};
  if (!isObject(v)) {
    problems.add(
      [...at, key],
      `must be an object of strings, got ${describeValue(v)}; write e.g. { "NAME": "value" }`,
    );
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, item] of Object.entries(v)) {
    if (typeof item === "string") out[k] = item;
    else {
      problems.add(
        [...at, key, k],
        `must be a string, got ${describeValue(item)}; quote it: ${
          JSON.stringify(JSON.stringify(item) ?? "")
        }`,
      );
    }
  }
  return out;
}

function mapValues(
  map: Record<string, string>,
  fn: (value: string, key: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) out[k] = fn(v, k);
  return out;
}

/** Tool patterns: exact names, globs (`delete_*`, `?`) or `/regex/flags` that must compile. */
function readPatterns(
  block: Obj,
  key: string,
  at: JsonPath,
  problems: Problems,
): string[] | undefined {
  const list = readStringArray(block, key, at, problems, `e.g. ["read_*", "/^get_/i"]`);
  if (!list) return undefined;
  list.forEach((pattern, i) => {
    if (pattern === "") {
      problems.add(
        [...at, key, i],
        `must not be empty, got ""; write a tool name, a glob or /regex/`,
      );
      return;
    }
    const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
    if (!m) return;
    try {
      new RegExp(m[1], m[2]);
    } catch (error) {
      problems.add(
        [...at, key, i],
        `is not a valid regular expression, got ${describeValue(pattern)} (${
          (error as Error).message
        }); ` +
          `fix the pattern, or drop the slashes to match the name literally or as a glob`,
      );
    }
  });
  return list;
}

/**
 * The hooks a configuration declares: commands the daemon runs for events of
 * given kinds (issue 28, "Hooks"; spec 004's `MCPX_HOOK_*` rows). They sit in
 * the file's `hooks` section beside the hooks' settings (config/settings_hooks.ts),
 * under `observe`, the phase of every declared hook:
 *
 * ```jsonc
 * "hooks": {
 *   "timeout": "10s",
 *   "observe": {
 *     "crash-alert": {
 *       "on": ["server.crashed"],          // kinds, or a family: "server" is every server.… kind
 *       "command": "notify-send \"$MCPX_HOOK_EVENT_SERVER crashed\"",  // sh -c; or an argv array
 *       "servers": ["browser"],            // optional: only events about these servers
 *       "timeout": "5s"                    // optional: this hook's own bound
 *     }
 *   }
 * }
 * ```
 *
 * Being in a settings section, the whole block is one of the file's settings
 * for trust (config/trust.ts `projectSettings`): a project's hooks run only
 * once `mcpx trust` has recorded the file's settings (decision 0081).
 *
 * @module
 */

import { EVENT_FAMILIES, EVENT_KINDS } from "../core/event_kinds.ts";
import { describeValue } from "./_describe.ts";
import { DURATION_FORMS, DurationError, parseDuration } from "./duration.ts";
import { type JsonPath, Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";
import type { ServerSpec } from "./types.ts";

export { HOOKS_BLOCK, HOOKS_SECTION } from "./settings_hooks.ts";
import { HOOKS_BLOCK, HOOKS_SECTION } from "./settings_hooks.ts";

/** The keys a hook's entry accepts. */
export const HOOK_KEYS: readonly string[] = ["on", "command", "servers", "timeout", "description"];

/** The kinds a hook may name: every published kind and every family (`gap` is a reader's own). */
export const HOOK_KINDS: readonly string[] = [
  ...EVENT_KINDS.filter((k) => k !== "gap"),
  ...EVENT_FAMILIES,
];

/** A hook's name: what `MCPX_HOOK_NAME` carries and the log names. */
const HOOK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** One declared hook, validated. */
export interface HookDeclaration {
  /** Its key under `hooks.observe`. */
  name: string;
  /** The kinds it runs for, each a kind of core/event_kinds.ts or a family (`server`). */
  on: string[];
  /** A string is run by `sh -c`; an array is the program and its arguments, run directly. */
  command: string | string[];
  /**
   * Only events about these servers: each a name under `mcpServers` or a
   * namespace, listed here as both. Absent: events about any server, or none.
   */
  servers?: string[];
  /** Its own bound, in ms; absent: the setting `hooks.timeout`. */
  timeoutMs?: number;
  description?: string;
}

/**
 * Reads and checks `hooks.observe`, adding a problem for each mistake (the
 * hook, the value and the fix), so a file's problems are reported together.
 *
 * @param document The parsed file.
 * @param problems Where problems go.
 * @param servers The file's servers: a hook's `servers` must name one of them.
 * @returns The hooks whose entries were sound, in file order.
 */
export function readHooks(
  document: Record<string, unknown>,
  problems: Problems,
  servers: readonly Pick<ServerSpec, "name" | "namespace">[],
): HookDeclaration[] {
  const section = document[HOOKS_SECTION];
  if (!isObject(section) || !Object.hasOwn(section, HOOKS_BLOCK)) return [];
  const block = section[HOOKS_BLOCK];
  const path = [HOOKS_SECTION, HOOKS_BLOCK];
  if (!isObject(block)) {
    problems.add(
      path,
      `must be an object of hook name to hook, got ${describeValue(block)}; write ` +
        `{ "crash-alert": { "on": ["server.crashed"], "command": "…" } }`,
    );
    return [];
  }
  const hooks: HookDeclaration[] = [];
  for (const [name, entry] of Object.entries(block)) {
    const hook = readHook(name, entry, [...path, name], problems, servers);
    if (hook) hooks.push(hook);
  }
  return hooks;
}

/**
 * The hooks of a configuration already loaded (its `document`), for the
 * daemon that runs them.
 *
 * @param document The parsed file (`LoadedConfig.document`).
 * @param file The file, for messages.
 * @param servers The file's servers.
 * @throws {ConfigError} As {@link readHooks} finds problems (a loaded file has none).
 * @example
 * ```ts
 * import { hookDeclarations } from "./hooks.ts";
 * const hooks = hookDeclarations(
 *   { hooks: { observe: { alert: { on: "server", command: ["true"] } } } },
 *   "/p/.mcp.json",
 *   [],
 * );
 * if (hooks[0].on[0] !== "server") throw new Error();
 * ```
 */
export function hookDeclarations(
  document: Record<string, unknown>,
  file: string | null,
  servers: readonly Pick<ServerSpec, "name" | "namespace">[],
): HookDeclaration[] {
  const problems = new Problems(file);
  const hooks = readHooks(document, problems, servers);
  problems.throwIfAny();
  return hooks;
}

function readHook(
  name: string,
  entry: unknown,
  path: JsonPath,
  problems: Problems,
  servers: readonly Pick<ServerSpec, "name" | "namespace">[],
): HookDeclaration | undefined {
  const at = `hook ${JSON.stringify(name)}`;
  if (!HOOK_NAME.test(name)) {
    problems.add(
      path,
      `${at}: a hook's name is up to 64 letters, digits, "_", "." and "-", starting with a ` +
        `letter or digit; rename it (e.g. "crash-alert")`,
    );
  }
  if (!isObject(entry)) {
    problems.add(
      path,
      `${at} must be an object, got ${describeValue(entry)}; write ` +
        `{ "on": ["server.crashed"], "command": "…" }`,
    );
    return undefined;
  }
  const before = problems.list.length;
  for (const key of Object.keys(entry)) {
    if (HOOK_KEYS.includes(key)) continue;
    problems.add(
      [...path, key],
      `${at}: unknown key, got ${describeValue(entry[key])}${
        didYouMean(key, HOOK_KEYS) || "; remove it"
      } (accepted: ${HOOK_KEYS.join(", ")})`,
    );
  }
  const on = readKinds(entry.on, [...path, "on"], at, problems);
  const command = readCommand(entry.command, [...path, "command"], at, problems);
  const hookServers = readServers(entry.servers, [...path, "servers"], at, problems, servers);
  let timeoutMs: number | undefined;
  if (Object.hasOwn(entry, "timeout")) {
    try {
      timeoutMs = parseDuration(entry.timeout);
      if (timeoutMs === 0) throw new RangeError("zero");
    } catch (error) {
      const refused = error instanceof DurationError ? error : undefined;
      problems.add(
        [...path, "timeout"],
        `${at}: must be ${refused?.requirement ?? `a duration above 0 (${DURATION_FORMS})`}, ` +
          `got ${describeValue(entry.timeout)}; ${
            refused?.fix ?? `write e.g. "10s", or leave it out for hooks.timeout`
          }`,
      );
    }
  }
  let description: string | undefined;
  if (Object.hasOwn(entry, "description")) {
    if (typeof entry.description === "string") description = entry.description;
    else {
      problems.add(
        [...path, "description"],
        `${at}: must be a string, got ${describeValue(entry.description)}; write one sentence`,
      );
    }
  }
  if (problems.list.length > before || !on || !command) return undefined;
  return {
    name,
    on,
    command,
    ...(hookServers ? { servers: hookServers } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

function readKinds(
  value: unknown,
  path: JsonPath,
  at: string,
  problems: Problems,
): string[] | undefined {
  const example = `write e.g. ["server.crashed"], or "server" for every server.… kind`;
  if (value === undefined) {
    problems.add(path, `${at} needs "on": the kinds of event it runs for; ${example}`);
    return undefined;
  }
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) {
    problems.add(
      path,
      `${at}: must be a kind or a non-empty list of kinds, got ${describeValue(value)}; ${example}`,
    );
    return undefined;
  }
  let sound = true;
  list.forEach((kind, i) => {
    const where = typeof value === "string" ? path : [...path, i];
    if (typeof kind !== "string") {
      problems.add(where, `${at}: must be a kind, got ${describeValue(kind)}; ${example}`);
      sound = false;
    } else if (!HOOK_KINDS.includes(kind)) {
      problems.add(
        where,
        `${at}: unknown event kind ${JSON.stringify(kind)}${didYouMean(kind, HOOK_KINDS)} (kinds: ${
          EVENT_KINDS.filter((k) => k !== "gap").join(", ")
        }; or a family such as ` +
          `"server")`,
      );
      sound = false;
    }
  });
  return sound ? [...new Set(list as string[])] : undefined;
}

function readCommand(
  value: unknown,
  path: JsonPath,
  at: string,
  problems: Problems,
): string | string[] | undefined {
  const example = `write a shell command ("notify-send crashed") or a program and its ` +
    `arguments (["/usr/local/bin/alert", "--quiet"])`;
  if (value === undefined) {
    problems.add(path, `${at} needs "command": what to run; ${example}`);
    return undefined;
  }
  if (typeof value === "string") {
    if (value.trim() !== "") return value;
  } else if (
    Array.isArray(value) && value.length > 0 &&
    value.every((part) => typeof part === "string") && value[0] !== ""
  ) {
    return value as string[];
  }
  problems.add(
    path,
    `${at}: must be a non-empty string or a list of strings whose first is the program, got ${
      describeValue(value)
    }; ${example}`,
  );
  return undefined;
}

function readServers(
  value: unknown,
  path: JsonPath,
  at: string,
  problems: Problems,
  servers: readonly Pick<ServerSpec, "name" | "namespace">[],
): string[] | undefined {
  if (value === undefined) return undefined;
  const names = servers.flatMap((s) => [s.name, s.namespace]);
  if (!Array.isArray(value) || value.length === 0) {
    problems.add(
      path,
      `${at}: must be a non-empty list of server names, got ${describeValue(value)}; write ` +
        `e.g. ["browser"], or leave "servers" out for events about any server`,
    );
    return undefined;
  }
  const out = new Set<string>();
  value.forEach((name, i) => {
    if (typeof name !== "string") {
      problems.add([...path, i], `${at}: must be a server name, got ${describeValue(name)}`);
      return;
    }
    const server = servers.find((s) => s.name === name || s.namespace === name);
    if (!server) {
      const known = [...new Set(servers.map((s) => s.name))];
      problems.add(
        [...path, i],
        `${at}: no server is named ${JSON.stringify(name)}${
          didYouMean(name, [...new Set(names)]) || `; name one under "mcpServers"`
        } (servers: ${known.length ? known.join(", ") : "none"})`,
      );
      return;
    }
    out.add(server.name);
    out.add(server.namespace);
  });
  return [...out];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

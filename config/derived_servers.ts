/**
 * Namespaces derived from declarations: a path setting (`paths.adapters`,
 * `paths.apis`) names declaration files, each declared item becomes an
 * ordinary stdio server entry that runs mcpx itself with a subcommand
 * (`mcpx adapter serve <name> --from <file>`), and from there pooling, scope,
 * the log, the schema cache, `ls`, `types`, `call` and the generated client
 * treat it as any configured server. Generic over kinds: one row of
 * {@link DERIVED_KINDS} per kind; what an item says beyond its name is the
 * kind's own subcommand's business (it reads the file again when it starts).
 *
 * The items join the configuration after it is loaded and its settings are
 * resolved ({@link withDerivedServers}), by the CLI and the daemon alike, and
 * fold a digest of every declaration into the fingerprint: an edited
 * declaration gets its own daemon and schema cache, as an edited
 * configuration file does. Decision 0052.
 *
 * Source: spec 000, "Command-line programs as servers", "Specifications as
 * tools", "Search paths".
 *
 * @module
 */

import { ConfigError } from "../core/errors.ts";
import { dirname, isAbsolute, join, resolve } from "../core/posix_path.ts";
import { ROOT_URL } from "../core/root.ts";
import { describeValue } from "./_describe.ts";
import { Problems } from "./_problems.ts";
import { parseServer } from "./_server.ts";
import { canonicalJson } from "./_canonical_json.ts";
import { fnv1a64 } from "../core/fnv1a64.ts";
import { parsePathList } from "./setting_value.ts";
import { expandVars } from "./expand.ts";
import { toIdentifier } from "./identifiers.ts";
import { declarationSecrets } from "./secrets.ts";
import { interpolationEnv } from "./user_env.ts";
import type { LoadedConfig, ServerSpec } from "./types.ts";

/** The kinds of derived namespace. */
export type DerivedKindName = "adapters" | "apis";

/** One kind of derived namespace: where its declarations are and what runs each. */
export interface DerivedKind {
  /** The kind, also the key of the list in a declaration file (`{ "adapters": [ … ] }`). */
  kind: DerivedKindName;
  /** The setting naming its declaration files or directories. */
  setting: "paths.adapters" | "paths.apis";
  /** mcpx's subcommand that serves one declared item over stdio, before its name. */
  subcommand: readonly string[];
  /** What one item is called in messages (`adapter`). */
  what: string;
}

/** Every kind, in the order their servers follow the configured ones. */
export const DERIVED_KINDS: readonly DerivedKind[] = [
  {
    kind: "adapters",
    setting: "paths.adapters",
    subcommand: ["adapter", "serve"],
    what: "adapter",
  },
  { kind: "apis", setting: "paths.apis", subcommand: ["api", "serve"], what: "API" },
];

/** The row of {@link DERIVED_KINDS} for `kind`. */
export function derivedKind(kind: DerivedKindName): DerivedKind {
  return DERIVED_KINDS.find((k) => k.kind === kind)!;
}

/** One declared item, as read from its file. */
export interface Declaration {
  kind: DerivedKindName;
  /** The item's `name`: its server name and, made an identifier, its namespace. */
  name: string;
  /** The declaration file (absolute). */
  file: string;
  /** Its index in the file's list. */
  index: number;
  /** The item as written (the kind's subcommand validates the rest). */
  item: Record<string, unknown>;
}

/** Declaration file names a directory place contributes. */
const DECLARATION_FILE = /\.jsonc?$/;

/**
 * The files a kind's places name: a file place is itself, a directory place its
 * `*.json` and `*.jsonc` files in name order. Built-in places (`null`) are none.
 *
 * @param places Absolute paths (what a `paths` setting resolved to), nulls skipped.
 * @param setting The setting, for messages, or the option (`--from`) that named the places.
 * @throws {ConfigError} When a place does not exist or cannot be read, naming it and the setting.
 */
export function declarationFiles(places: readonly (string | null)[], setting: string): string[] {
  const files: string[] = [];
  for (const place of places) {
    if (place === null) continue;
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(place);
    } catch (error) {
      throw new ConfigError(
        place,
        "",
        `${setting} names this place, which ${
          error instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read"
        }; ${
          setting.startsWith("-")
            ? `give ${setting} a declaration file that exists`
            : `create it or remove it from ${setting}`
        }`,
        { cause: error },
      );
    }
    if (!info.isDirectory) {
      files.push(place);
      continue;
    }
    const names = [...Deno.readDirSync(place)]
      .filter((e) => !e.isDirectory && DECLARATION_FILE.test(e.name))
      .map((e) => e.name)
      .sort();
    files.push(...names.map((n) => join(place, n)));
  }
  return [...new Set(files)];
}

/**
 * Reads every item a kind declares in `files`, checking what every kind shares:
 * the file is JSON(C) holding `{ "<kind>": [ … ] }`, each item an object with a
 * `name` made of letters, digits, `_` and `-`, no name twice.
 *
 * @param kind The kind.
 * @param files Declaration files ({@link declarationFiles}).
 * @returns The items in file and list order.
 * @throws {ConfigError} Naming the file, the JSON path, the value and the fix; every problem
 *   of one file together.
 */
export async function readDeclarations(
  kind: DerivedKindName,
  files: readonly string[],
): Promise<Declaration[]> {
  const { parseJsonc } = await import("./_jsonc.ts");
  const out: Declaration[] = [];
  const seen = new Map<string, string>();
  const example = kind === "adapters"
    ? `{ "adapters": [{ "name": "gitx", "command": "git", "tools": [ … ] }] }`
    : `{ "apis": [{ "name": "petstore", "spec": "./petstore.yaml" }] }`;
  for (const file of files) {
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch (error) {
      throw new ConfigError(
        file,
        "",
        `cannot read the declaration file: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    const { value } = parseJsonc(text, file);
    const problems = new Problems(file);
    const list = isObject(value) ? value[kind] : undefined;
    if (!Array.isArray(list)) {
      problems.add(
        isObject(value) ? [kind] : [],
        `must hold a list of ${kind}, got ${describeValue(list ?? value)}; write ${example}`,
      );
      problems.throwIfAny();
      continue;
    }
    list.forEach((item, index) => {
      if (!isObject(item)) {
        problems.add(
          [kind, index],
          `must be an object, got ${describeValue(item)}; write ${example}`,
        );
        return;
      }
      const name = item.name;
      if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
        problems.add(
          [kind, index, "name"],
          `must be a name of letters, digits, _ and - (it becomes a namespace), got ${
            describeValue(name)
          }; write e.g. "gitx"`,
        );
        return;
      }
      const other = seen.get(name);
      if (other !== undefined) {
        problems.add(
          [kind, index, "name"],
          `${JSON.stringify(name)} is declared already in ${other}; give one of them another name`,
        );
        return;
      }
      seen.set(name, file);
      out.push({ kind, name, file, index, item });
    });
    problems.throwIfAny();
  }
  return out;
}

/**
 * Finds one declared item by name among a kind's places: what `mcpx adapter
 * serve <name>` and `mcpx api serve <name>` read.
 *
 * @param kind The kind.
 * @param name The item's name.
 * @param places The files or directories to look in (a `--from` file, or the setting's places).
 * @throws {ConfigError} When no place declares it (listing the names that are declared), or a
 *   file is malformed.
 */
export async function findDeclaration(
  kind: DerivedKindName,
  name: string,
  places: readonly (string | null)[],
): Promise<Declaration> {
  const { setting, what } = derivedKind(kind);
  const all = await readDeclarations(kind, declarationFiles(places, setting));
  const found = all.find((d) => d.name === name);
  if (found) return found;
  const where = places.filter((p) => p !== null).join(", ") || `nowhere (${setting} is empty)`;
  throw new ConfigError(
    null,
    "",
    `no ${what} named ${JSON.stringify(name)} is declared in ${where}; declared: ${
      all.map((d) => d.name).join(", ") || "none"
    }`,
  );
}

/** A program and its arguments. */
export interface SelfCommand {
  command: string;
  args: string[];
}

/**
 * How a derived server runs mcpx: this runtime (`Deno.execPath()`) running
 * the checkout's cli/mcpx.bundle.js with all permissions and its deno.json, as
 * the CLI starts the daemon.
 */
export function selfCommand(): SelfCommand {
  const path = (file: string) => {
    const url = new URL(file, ROOT_URL);
    return url.protocol === "file:" ? decodeURIComponent(url.pathname) : url.href;
  };
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--config", path("deno.json"), path("cli/mcpx.bundle.js")],
  };
}

/**
 * The server entry of one declared item, parsed as any `mcpServers` entry is:
 * mcpx itself running the kind's subcommand with the item's name and file. It
 * starts in the item's `cwd` (relative to its file) or else its file's
 * directory; its `description` is the namespace's.
 *
 * @throws {ConfigError} When the item's `cwd` or `description` is not a string.
 */
export function derivedServer(
  declaration: Declaration,
  env: Record<string, string | undefined>,
  self: SelfCommand = selfCommand(),
): ServerSpec {
  const { kind, name, file, index, item } = declaration;
  const problems = new Problems(file);
  const dir = dirname(file);
  for (const key of ["cwd", "description"] as const) {
    if (item[key] !== undefined && (typeof item[key] !== "string" || item[key] === "")) {
      problems.add(
        [kind, index, key],
        `must be a non-empty string, got ${describeValue(item[key])}`,
      );
    }
  }
  problems.throwIfAny();
  const cwd = typeof item.cwd === "string"
    ? (isAbsolute(item.cwd) ? item.cwd : resolve(dir, item.cwd))
    : dir;
  const entry = {
    command: self.command,
    args: [...self.args, ...derivedKind(kind).subcommand, name, "--from", file],
    cwd,
    mcpx: {
      description: typeof item.description === "string"
        ? item.description
        : `${derivedKind(kind).what} ${name} (declared in ${file})`,
      tags: [derivedKind(kind).what.toLowerCase()],
    },
  };
  const warnings: string[] = [];
  const spec = parseServer(name, entry, { file, dir, env, problems, warnings, poolDefaults: {} });
  problems.throwIfAny();
  return { ...spec!, derived: { kind, file } };
}

/** Reads a resolved setting's string value (config/settings.ts `settingOf`, or a daemon's values). */
export type SettingReader = (name: DerivedKind["setting"]) => string;

/**
 * The configuration with every derived server appended after its own, and its
 * `fingerprint` and `contentHash` mixed with a digest of the declarations, so
 * the CLI and the daemon agree on the servers and an edited declaration gets
 * its own daemon. Without declarations it is `config` itself: nothing read.
 *
 * @param config The loaded configuration.
 * @param setting The resolved value of `paths.adapters` and `paths.apis` (`:`-joined absolute
 *   paths, `""` for none).
 * @param env Variables (only for parsing the entries; derived entries name none).
 * @throws {ConfigError} When a place is missing, a declaration file is malformed, or a declared
 *   name is a configured server's (or another declaration's) name or namespace.
 */
export async function withDerivedServers<C extends LoadedConfig>(
  config: C,
  setting: SettingReader,
  env: Record<string, string | undefined>,
): Promise<C> {
  const declarations: Declaration[] = [];
  for (const kind of DERIVED_KINDS) {
    const places = parsePathList(setting(kind.setting));
    if (places.every((p) => p === null)) continue;
    declarations.push(...await readDeclarations(kind.kind, declarationFiles(places, kind.setting)));
  }
  if (declarations.length === 0) return config;
  const [clash] = declarationClashes(config, declarations);
  if (clash) throw clash.error;
  const self = selfCommand();
  const servers: ServerSpec[] = [];
  for (const d of declarations) {
    const spec = derivedServer(d, env, self);
    // Its command names only the item; what the item says (and the values of the variables
    // it names) decides its tools too, so a cached listing of the item as it was, or under
    // other values (a key now unset), is not shown for it (engine/schema_cache.ts siblings).
    const item = fnv1a64(`${canonicalJson(d.item)}\0${await variablesDigest([d], env)}`);
    spec.listingId = fnv1a64(`${spec.listingId}\0${item}`);
    spec.poolId = fnv1a64(`${spec.poolId}\0${item}`);
    servers.push(spec);
  }
  const digest = fnv1a64(canonicalJson({
    declarations: declarations.map(({ kind, name, file, item }) => ({ kind, name, file, item })),
    variables: await variablesDigest(declarations, env),
  }));
  return {
    ...config,
    servers: [...config.servers, ...servers],
    declaredSecrets: declarationSecrets(declarations, interpolationEnv(env)),
    fingerprint: fnv1a64(`${config.fingerprint}\0${digest}`),
    ...(config.contentHash ? { contentHash: fnv1a64(`${config.contentHash}\0${digest}`) } : {}),
  };
}

/** A declared item whose name or namespace another server or declaration has. */
export interface DeclarationClash {
  declaration: Declaration;
  /** Names the declaration's file and entry, both owners and the fix. */
  error: ConfigError;
}

/**
 * The declared items whose name, or namespace (the name made an identifier),
 * is already a configured server's or an earlier declaration's, in
 * declaration order. {@link withDerivedServers} refuses the first;
 * `mcpx adapter check` reports each, so the check fails on what would make
 * every command fail.
 *
 * @param config The configuration's path and servers (before derived ones join).
 * @param declarations Every declared item, of every kind.
 * @returns One clash per item that clashes; empty when none does.
 * @example
 * ```ts
 * import { declarationClashes } from "./derived_servers.ts";
 * const clashes = declarationClashes({ path: "/p/.mcp.json", servers: [] }, []);
 * if (clashes.length !== 0) throw new Error();
 * ```
 */
export function declarationClashes(
  config: { path: string | null; servers: readonly { name: string; namespace: string }[] },
  declarations: readonly Declaration[],
): DeclarationClash[] {
  const taken = new Map<string, string>();
  for (const s of config.servers) {
    const where = `configured server ${JSON.stringify(s.name)} in ${config.path ?? "(none)"}`;
    taken.set(s.name, where);
    taken.set(s.namespace, where);
  }
  const out: DeclarationClash[] = [];
  for (const d of declarations) {
    const namespace = d.name === "" ? "_" : toIdentifier(d.name);
    const clash = taken.get(d.name) ?? taken.get(namespace);
    const what = `${derivedKind(d.kind).what} ${JSON.stringify(d.name)}`;
    if (clash !== undefined) {
      out.push({
        declaration: d,
        error: new ConfigError(
          d.file,
          `${d.kind}[${d.index}].name`,
          `${what} takes the name of the ${clash}; rename one of them`,
        ),
      });
      continue;
    }
    taken.set(d.name, `${what} in ${d.file}`);
    taken.set(namespace, `${what} in ${d.file}`);
  }
  return out;
}

/**
 * SHA-256 (hex) of the values of the `${VAR}`s the declarations name (an API's
 * `auth` token, say), so that, as for a configuration file (config/fingerprint.ts),
 * a changed value gets a new daemon whose servers start with it, while the
 * fingerprint never holds a value a fast hash could give back.
 */
async function variablesDigest(
  declarations: readonly Declaration[],
  env: Record<string, string | undefined>,
): Promise<string> {
  const used = declarations.flatMap((d) =>
    expandVars(JSON.stringify(d.item), env).used.map((u) => [u.name, u.value])
  );
  const bytes = new TextEncoder().encode(canonicalJson(used));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

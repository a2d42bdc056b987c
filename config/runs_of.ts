/**
 * What a server of a configuration would run, shown whole to the person who
 * decides whether to trust it (`mcpx ls`, `mcpx trust`, an untrusted call's
 * error, `untrusted.runnable` in `--json`): everything the trust hash covers
 * (config/trust.ts `runnables()`: command, args, env, cwd, url, headers,
 * transport, auth; an alias's target), so an edit that asks for trust again shows
 * in what is shown. Issue 9 found `NODE_OPTIONS` added to a server's `env`
 * asking again while the prompt showed the same command line.
 *
 * Values are as written, `${VAR}` unexpanded, and pass through the one
 * redactor (core/redact.ts, config/secrets.ts `configSecrets`) as everything
 * mcpx prints does (decision 0017): a value it takes for a secret (a literal
 * `env` or header value that is not an ordinary word, number or path, a
 * secret flag's value, URL credentials) is shown as the reference to where it
 * is written, `${mcpServers.<name>.env.<KEY>}`, so the person sees that it is
 * set and where to read it in the file, and an agent's transcript never holds
 * it (an edit of such a value alone asks again with the same line shown).
 * The directory a stdio server starts in is the configuration file's real
 * directory when the entry sets none (config/_process.ts), and is shown
 * either way.
 *
 * @module
 */

import { own } from "../core/own.ts";
import { isAbsolute, resolve } from "../core/posix_path.ts";
import { Redactor } from "../core/redact.ts";
import { configSecrets } from "./secrets.ts";
import { shellWord } from "./shell_word.ts";

/** What one server would run, as data: the fields of its entry the trust hash covers. */
export interface Runnable {
  /** Set when the server is an alias (`aliasOf`): the server whose process it runs. */
  aliasOf?: string;
  /** stdio: the program, as written. */
  command?: string;
  /** stdio: its arguments as written, a literal secret as its reference. */
  args?: string[];
  /** stdio: variables set for it, `KEY` → value as written, a literal secret as its reference. */
  env?: Record<string, string>;
  /**
   * stdio: the directory it starts in, absolute: the entry's `cwd` resolved
   * against the file's real directory, or that directory. Left as written when
   * it starts with a `${VAR}`.
   */
  cwd?: string;
  /** Remote: the URL, its credentials and secret query values redacted. */
  url?: string;
  /**
   * Remote: the headers sent, name → value as written: a `${VAR}` stays a
   * reference, a literal value (always a credential here) is shown as the
   * reference to its place, `${mcpServers.<name>.headers.<Name>}`.
   */
  headers?: Record<string, string>;
  /** The transport as written (`type` or `transport`), when written. */
  transport?: string;
  /**
   * The `auth` block (config/auth.ts): its kind and each other field as
   * written, nested ones dotted (`vars.API_KEY`, `scopes.0`), a literal
   * secret as its reference.
   */
  auth?: { type: string; fields: Record<string, string> };
}

/** Options of {@link runnableOf} and {@link runsOf}. */
export interface RunsOfOptions {
  /** The configuration file's real directory (symlinks resolved); absent: `cwd` as written. */
  dir?: string;
  /** Replaces literal secrets; absent: one built from the document's own. */
  redactor?: Redactor;
}

/**
 * What server `name` would run, as data.
 *
 * @param document The parsed configuration file (`LoadedConfig.document`), unexpanded.
 * @param name The server's key under `mcpServers`.
 * @param options The file's real directory and a redactor.
 * @returns The {@link Runnable}; an entry that is not an object gives `{}`.
 * @example
 * ```ts
 * import { runnableOf } from "./runs_of.ts";
 * const doc = { mcpServers: { m: { command: "npx", env: { LD_PRELOAD: "/tmp/x.so" } } } };
 * const r = runnableOf(doc, "m", { dir: "/p" });
 * if (r.cwd !== "/p" || r.env?.LD_PRELOAD !== "/tmp/x.so") throw new Error();
 * ```
 */
export function runnableOf(
  document: Record<string, unknown>,
  name: string,
  options: RunsOfOptions = {},
): Runnable {
  const servers = isObject(document.mcpServers) ? document.mcpServers : {};
  const redactor = options.redactor ?? documentRedactor(document);
  const entry = own(servers, name);
  if (isObject(entry) && typeof entry.aliasOf === "string") {
    return {
      aliasOf: entry.aliasOf,
      ...processOf(own(servers, entry.aliasOf), redactor, options.dir),
    };
  }
  return processOf(entry, redactor, options.dir);
}

/**
 * What server `name` would run, for a person: one line, words quoted the way
 * a POSIX shell reads them back. A stdio server reads
 * `cd <dir> && KEY=value … <command> <args…>`; a remote one
 * `<url> (transport <t>, headers Name=value …)`; an `auth` block adds
 * `auth <kind> field=value …` (after the command line, or in the parentheses);
 * an alias adds `(alias of <target>)` in front. Never cut short: what is left out could be what matters.
 *
 * @param document The parsed configuration file.
 * @param name The server's key under `mcpServers`.
 * @param options The file's real directory and a redactor.
 * @returns e.g. `cd /p && NODE_OPTIONS='--require /tmp/evil.js' npx -y @scope/server`.
 * @example
 * ```ts
 * import { runsOf } from "./runs_of.ts";
 * const doc = { mcpServers: { r: { url: "https://x.test/mcp", headers: { Authorization: "Bearer t0ps3cr3t!" } } } };
 * const ref = "'${mcpServers.r.headers.Authorization}'";
 * if (runsOf(doc, "r") !== `https://x.test/mcp (headers Authorization=${ref})`) throw new Error();
 * ```
 */
export function runsOf(
  document: Record<string, unknown>,
  name: string,
  options: RunsOfOptions = {},
): string {
  return runsText(runnableOf(document, name, options));
}

/**
 * The one-line form of a {@link Runnable} ({@link runsOf}).
 *
 * @param r What a server runs.
 * @returns The line; `(nothing)` for an entry with neither command nor URL.
 */
export function runsText(r: Runnable): string {
  const alias = r.aliasOf !== undefined ? `(alias of ${r.aliasOf}) ` : "";
  const auth = r.auth
    ? [
      [
        `auth ${r.auth.type}`,
        ...Object.entries(r.auth.fields).map(([k, v]) => `${k}=${shellWord(v)}`),
      ]
        .join(" "),
    ]
    : [];
  if (r.url !== undefined) {
    const notes = [
      ...(r.transport !== undefined ? [`transport ${r.transport}`] : []),
      ...auth,
      ...(r.headers
        ? [
          `headers ${
            Object.entries(r.headers).map(([key, value]) => `${key}=${shellWord(value)}`).join(" ")
          }`,
        ]
        : []),
    ];
    return `${alias}${r.url}${notes.length ? ` (${notes.join(", ")})` : ""}`;
  }
  if (r.command === undefined && r.args === undefined) return `${alias}(nothing)`;
  const words = [
    ...Object.entries(r.env ?? {}).map(([key, value]) => `${key}=${shellWord(value)}`),
    ...[r.command ?? "(no command)", ...(r.args ?? [])].map(shellWord),
  ];
  const cd = r.cwd !== undefined ? `cd ${shellWord(r.cwd)} && ` : "";
  return `${alias}${cd}${words.join(" ")}${auth.length ? ` (${auth[0]})` : ""}`;
}

/** The redactor of the document's literal secrets (its `${VAR}`s are shown unexpanded anyway). */
export function documentRedactor(document: Record<string, unknown>): Redactor {
  return new Redactor(configSecrets(document, {}));
}

function processOf(entry: unknown, redactor: Redactor, dir: string | undefined): Runnable {
  if (!isObject(entry)) return {};
  const auth = authOf(entry.auth, redactor);
  return { ...runnableProcess(entry, redactor, dir), ...(auth ? { auth } : {}) };
}

/** An `auth` block as {@link Runnable.auth} shows it; undefined when absent or not an object. */
function authOf(block: unknown, redactor: Redactor): Runnable["auth"] {
  if (!isObject(block)) return undefined;
  const fields: Record<string, string> = {};
  const add = (key: string, value: unknown): void => {
    if (isObject(value) || Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) add(`${key}.${k}`, v);
    } else fields[key] = redactor.text(String(value));
  };
  for (const [key, value] of Object.entries(block)) if (key !== "type") add(key, value);
  return { type: String(block.type), fields };
}

function runnableProcess(
  entry: Record<string, unknown>,
  redactor: Redactor,
  dir: string | undefined,
): Runnable {
  const transport = typeof entry.transport === "string"
    ? entry.transport
    : typeof entry.type === "string"
    ? entry.type
    : undefined;
  if (entry.url !== undefined) {
    return {
      url: redactor.text(String(entry.url)),
      ...(isObject(entry.headers) && Object.keys(entry.headers).length
        ? {
          headers: Object.fromEntries(
            Object.entries(entry.headers).map((
              [key, value],
            ) => [key, redactor.text(String(value))]),
          ),
        }
        : {}),
      ...(transport !== undefined ? { transport } : {}),
    };
  }
  const args = Array.isArray(entry.args) ? entry.args.map((a) => redactor.text(String(a))) : [];
  const env = isObject(entry.env)
    ? Object.fromEntries(
      Object.entries(entry.env).map(([key, value]) => [key, redactor.text(String(value))]),
    )
    : undefined;
  const written = typeof entry.cwd === "string" && entry.cwd !== "" ? entry.cwd : undefined;
  const cwd = written === undefined
    ? dir
    : dir !== undefined && !isAbsolute(written) && !written.startsWith("${")
    ? resolve(dir, written)
    : written;
  return {
    ...(entry.command !== undefined ? { command: redactor.text(String(entry.command)) } : {}),
    args,
    ...(env && Object.keys(env).length ? { env } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(transport !== undefined && transport !== "stdio" ? { transport } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

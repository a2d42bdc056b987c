/**
 * Trusting a project's configuration before running it. A `.mcp.json` found
 * upward from the working directory may come from a cloned repository: mcpx
 * starts none of its servers (not to list them, not for a call, not for a
 * pool's `min`) until the user has run `mcpx trust`, which records, per
 * server, a hash of what the server runs. An edit that changes what a server
 * runs asks again; an edit to anything else (a description, tags, tool
 * filters, pool settings) does not. Decision 0018.
 *
 * What a server runs is its entry's process keys as written in the file
 * (config/_process.ts `PROCESS_KEYS`: `command`, `args`, `env`, `cwd`,
 * `url`, `headers`, `type`/`transport`), before `${VAR}` expansion, so a
 * changed variable value never asks again but an edited reference does; an
 * alias (`aliasOf`) adds its target's.
 *
 * The same {@link TrustGate} serves the CLI (which shows an untrusted server
 * as `untrusted` and never asks the daemon to list it) and the daemon (which
 * refuses to start one, whoever asks). Files the user named (`--config`,
 * `MCPX_CONFIG`) or keeps in their own config directory are never checked,
 * nor is anything under `security.trustProjectConfigs=always`.
 *
 * @module
 */

import type { ServerSpec, UntrustedServer } from "./types.ts";
import type { ConfigOrigin } from "./discover.ts";
import { canonicalJson } from "./_canonical_json.ts";
import { PROCESS_KEYS } from "./_process.ts";
import { readTrustStore, type TrustRecord, trustStorePath } from "./trust_store.ts";
import { own, setOwn } from "../core/own.ts";

/** The setting that turns the check off (`always`) or on (`ask`, the default). */
export const TRUST_SETTING = "security.trustProjectConfigs";

/**
 * Whether servers of a configuration must be trusted before they start.
 *
 * @param origin Where the file came from (config/discover.ts `configOrigin()`).
 * @param setting The value of {@link TRUST_SETTING}: `ask` or `always`.
 * @returns True only for a project's file under `ask`.
 * @example
 * ```ts
 * import { trustChecked } from "./trust.ts";
 * if (!trustChecked("project", "ask") || trustChecked("named", "ask")) throw new Error();
 * if (trustChecked("project", "always")) throw new Error();
 * ```
 */
export function trustChecked(origin: ConfigOrigin, setting: unknown): boolean {
  return origin === "project" && setting !== "always";
}

/**
 * What each server of a configuration runs, as written: its process keys, and
 * for an alias its target's. Servers are keyed by their name under `mcpServers`.
 *
 * @param document The parsed configuration file (`LoadedConfig.document`).
 * @returns Server name → the JSON-compatible value a hash is taken of.
 */
export function runnables(document: Record<string, unknown>): Record<string, unknown> {
  const servers = isObject(document.mcpServers) ? document.mcpServers : {};
  const pick = (entry: unknown) =>
    isObject(entry)
      ? Object.fromEntries(PROCESS_KEYS.filter((k) => k in entry).map((k) => [k, entry[k]]))
      : {};
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(servers)) {
    const target = isObject(entry) && typeof entry.aliasOf === "string" ? entry.aliasOf : undefined;
    setOwn(
      out,
      name,
      target === undefined
        ? pick(entry)
        : { ...pick(entry), aliasOf: { server: target, ...pick(own(servers, target)) } },
    );
  }
  return out;
}

/**
 * The hash the trust store records per server: SHA-256 of the canonical JSON
 * (sorted keys) of what it runs ({@link runnables}).
 *
 * @param document The parsed configuration file.
 * @returns Server name → 64 hex chars.
 * @example
 * ```ts
 * import { runnableHashes } from "./trust.ts";
 * const doc = (description: string) => ({
 *   mcpServers: { a: { command: "x", args: ["1"], mcpx: { description } } },
 * });
 * const [one, two] = await Promise.all([runnableHashes(doc("a")), runnableHashes(doc("b"))]);
 * if (one.a !== two.a || one.a.length !== 64) throw new Error();
 * ```
 */
export async function runnableHashes(
  document: Record<string, unknown>,
): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(runnables(document)).map(async ([name, runnable]) =>
      [name, await sha256Hex(canonicalJson(runnable))] as const
    ),
  );
  return Object.fromEntries(entries);
}

/**
 * What a server runs, for a person to read: its command line as written
 * (words with spaces or quotes quoted), or its URL; an alias says whose.
 * `${VAR}` references stay unexpanded, so no secret is shown.
 *
 * @param document The parsed configuration file.
 * @param name The server's key under `mcpServers`.
 * @returns e.g. `npx -y @modelcontextprotocol/server-memory`, `https://x.test/mcp`,
 *   `(alias of fs) npx -y …`; at most 300 characters.
 */
export function runsOf(document: Record<string, unknown>, name: string): string {
  const servers = isObject(document.mcpServers) ? document.mcpServers : {};
  const describeEntry = (entry: unknown): string => {
    if (!isObject(entry)) return "(nothing)";
    if (typeof entry.url === "string") return entry.url;
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    return [String(entry.command ?? "(no command)"), ...args].map(shellWord).join(" ");
  };
  const entry = own(servers, name);
  const text = isObject(entry) && typeof entry.aliasOf === "string"
    ? `(alias of ${entry.aliasOf}) ${describeEntry(own(servers, entry.aliasOf))}`
    : describeEntry(entry);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/**
 * The command that trusts `file`, as a user would type it.
 *
 * @example
 * ```ts
 * import { trustCommand } from "./trust.ts";
 * if (trustCommand("/p q/.mcp.json") !== "mcpx trust '/p q/.mcp.json'") throw new Error();
 * ```
 */
export function trustCommand(file: string): string {
  return `mcpx trust ${shellWord(file)}`;
}

/**
 * The sentence an untrusted server is shown with (`ls`, `status`, a call's
 * error, a script's `NamespaceError`). It tells an agent to ask its user
 * rather than trust the file itself.
 */
export function untrustedMessage(
  u: Pick<UntrustedServer, "file" | "trustCommand" | "runs" | "reason"> & { server: string },
): string {
  const why = u.reason === "changed"
    ? `changed since ${u.file} was trusted`
    : u.reason === "new-server"
    ? `was added to ${u.file} after it was trusted`
    : `belongs to ${u.file}, a project's configuration not trusted yet`;
  return `server "${u.server}" ${why}, so mcpx does not start it (it would run: ${u.runs}); ` +
    `review the file, then run \`${u.trustCommand}\` (an agent should ask its user to run ` +
    `that, not run it itself)`;
}

/** What {@link TrustGate.open} needs. */
export interface TrustGateOptions {
  /** The configuration file as found (absolute): what messages name. */
  file: string;
  /** Its real path: the store's key. */
  realPath: string;
  /** The parsed file (`LoadedConfig.document`). */
  document: Record<string, unknown>;
  /** mcpx's state directory, where the store is ({@link trustStorePath}). */
  stateDir: string;
}

/**
 * Answers "may this server start?" for one configuration file. The hashes are
 * computed once; the store is read again whenever it changed on disk, so a
 * long-running daemon sees `mcpx trust` and `mcpx untrust` at its next start.
 */
export class TrustGate {
  readonly file: string;
  readonly realPath: string;
  #document: Record<string, unknown>;
  #hashes: Record<string, string>;
  #store: string;
  #stamp = "";
  #record: TrustRecord | undefined;

  private constructor(options: TrustGateOptions, hashes: Record<string, string>) {
    this.file = options.file;
    this.realPath = options.realPath;
    this.#document = options.document;
    this.#hashes = hashes;
    this.#store = trustStorePath(options.stateDir);
  }

  /** Computes the file's hashes; reads nothing yet. */
  static async open(options: TrustGateOptions): Promise<TrustGate> {
    return new TrustGate(options, await runnableHashes(options.document));
  }

  /** Server name → its current hash (what `mcpx trust` records). */
  get hashes(): Record<string, string> {
    return { ...this.#hashes };
  }

  /**
   * Why server `name` may not start, or undefined when it may.
   *
   * @param name The server's key under `mcpServers`.
   */
  problem(name: string): UntrustedServer | undefined {
    const record = this.#current();
    const hash = own(this.#hashes, name);
    const recorded = own(record?.servers, name);
    if (hash !== undefined && recorded === hash) return undefined;
    const u = {
      file: this.file,
      trustCommand: trustCommand(this.file),
      runs: runsOf(this.#document, name),
      reason: !record ? "new-file" as const : recorded ? "changed" as const : "new-server" as const,
    };
    return { code: "untrusted", message: untrustedMessage({ ...u, server: name }), ...u };
  }

  /**
   * The servers with every untrusted one marked `unavailable` (so it is shown,
   * never listed or started, like a server with an unset variable). A server
   * already unavailable for another reason keeps that reason.
   */
  mark(servers: ServerSpec[]): ServerSpec[] {
    return servers.map((spec) => {
      if (spec.unavailable) return spec;
      const problem = this.problem(spec.name);
      return problem ? { ...spec, unavailable: problem } : spec;
    });
  }

  /** The store's record of this file, read again when the store changed on disk. */
  #current(): TrustRecord | undefined {
    let stamp: string;
    try {
      const info = Deno.statSync(this.#store);
      stamp = `${info.ino}:${info.size}:${info.mtime?.getTime()}`;
    } catch {
      stamp = "absent";
    }
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.#record = stamp === "absent"
        ? undefined
        : readTrustStore(this.#store).files[this.realPath];
    }
    return this.#record;
  }
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

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
import { runnableHashes } from "./runnable_hash.ts";
import { sha256Hex } from "../core/sha256.ts";
import { readTrustStore, type TrustRecord, trustStorePath } from "./trust_store.ts";
import { dirname } from "../core/posix_path.ts";
import { shellWord } from "./shell_word.ts";
import type { Redactor } from "../core/redact.ts";
import { SETTING_SECTIONS, SETTINGS } from "./settings.ts";

/** The settings a project's file never sets, trusted or not (`userOnly` in config/settings.ts). */
export const USER_ONLY_SETTINGS: ReadonlySet<string> = new Set(
  SETTINGS.filter((s) => s.userOnly).map((s) => s.name),
);

type RunsOfModule = typeof import("./runs_of.ts");
import { own } from "../core/own.ts";

export { runnableHashes, runnables } from "./runnable_hash.ts";

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
 * The settings a project's file sets (decision 0022): its settings sections
 * (config/settings.ts `SETTING_SECTIONS`: `script`, `logging`, `paths`,
 * `daemon`, …) as written, without the `userOnly` settings, which a project's
 * file never sets whether trusted or not. They apply only once `mcpx trust`
 * has recorded their hash ({@link settingsHash}), or under `always`.
 *
 * @param document The parsed configuration file.
 * @returns Section → its value as written; `{}` when the file sets none.
 */
export function projectSettings(document: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const section of SETTING_SECTIONS) {
    if (!Object.hasOwn(document, section)) continue;
    const value = document[section];
    if (!isObject(value)) {
      out[section] = value;
      continue;
    }
    const kept = Object.entries(value).filter(([key]) =>
      !USER_ONLY_SETTINGS.has(`${section}.${key}`)
    );
    if (kept.length) out[section] = Object.fromEntries(kept);
  }
  return out;
}

/**
 * The dotted names of what {@link projectSettings} holds, for a person:
 * `script.permissions`, `logging.dir`, or a bare section that is not an object.
 *
 * @example
 * ```ts
 * import { projectSettingNames } from "./trust.ts";
 * const names = projectSettingNames({ script: { permissions: "all" }, mcpServers: {} });
 * if (names.join() !== "script.permissions") throw new Error();
 * ```
 */
export function projectSettingNames(document: Record<string, unknown>): string[] {
  return Object.entries(projectSettings(document)).flatMap(([section, value]) =>
    isObject(value) ? Object.keys(value).map((key) => `${section}.${key}`) : [section]
  );
}

/**
 * The hash `mcpx trust` records of a file's settings: SHA-256 hex of the
 * canonical JSON of {@link projectSettings}, so any edit to them asks again.
 * When they name declaration files (`paths.adapters`, `paths.apis`, decision
 * 0052), the files' digests are hashed with them
 * (config/declaration_digest.ts), so an edit to a declaration asks again too.
 *
 * @param document The parsed configuration file.
 * @param file The file's path (a relative declaration place resolves against its directory);
 *   without it declarations are not read.
 * @param home The home directory, for `~/` in a place.
 * @returns 64 hex chars (the hash of `{}` when the file sets none).
 */
export async function settingsHash(
  document: Record<string, unknown>,
  file?: string,
  home?: string,
): Promise<string> {
  const settings = projectSettings(document);
  if (file !== undefined) {
    const { declarationDigests } = await import("./declaration_digest.ts");
    const declarations = await declarationDigests(settings, file, home);
    if (Object.keys(declarations).length > 0) {
      return await sha256Hex(canonicalJson({ settings, declarations }));
    }
  }
  return await sha256Hex(canonicalJson(settings));
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
  /**
   * The file's {@link runnableHashes} when already known (`LoadedConfig.runnableHashes`,
   * kept with its compiled entry); absent: computed here.
   */
  hashes?: Record<string, string>;
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
  #problems: string[] = [];
  #redactor?: Redactor;

  /** config/runs_of.ts, loaded with the gate (it loads the redactor, which the CLI loads lazily). */
  #shown: RunsOfModule;

  private constructor(
    options: TrustGateOptions,
    hashes: Record<string, string>,
    shown: RunsOfModule,
  ) {
    this.#shown = shown;
    this.file = options.file;
    this.realPath = options.realPath;
    this.#document = options.document;
    this.#hashes = hashes;
    this.#store = trustStorePath(options.stateDir);
  }

  /** Computes the file's hashes and loads what shows a server (config/runs_of.ts); reads no store yet. */
  static async open(options: TrustGateOptions): Promise<TrustGate> {
    const [hashes, shown] = await Promise.all([
      options.hashes ?? runnableHashes(options.document),
      import("./runs_of.ts"),
    ]);
    return new TrustGate(options, hashes, shown);
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
    return this.#problem(name, this.#current());
  }

  #problem(name: string, record: TrustRecord | undefined): UntrustedServer | undefined {
    const hash = own(this.#hashes, name);
    const recorded = own(record?.servers, name);
    if (hash !== undefined && recorded === hash) return undefined;
    const { documentRedactor, runnableOf, runsText } = this.#shown;
    this.#redactor ??= documentRedactor(this.#document);
    const runnable = runnableOf(this.#document, name, {
      dir: dirname(this.realPath),
      redactor: this.#redactor,
    });
    const u = {
      file: this.file,
      trustCommand: trustCommand(this.file),
      runs: runsText(runnable),
      runnable,
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
    // The store is looked at once, not once per server.
    const record = this.#current();
    return servers.map((spec) => {
      if (spec.unavailable) return spec;
      const problem = this.#problem(spec.name, record);
      return problem ? { ...spec, unavailable: problem } : spec;
    });
  }

  /**
   * What could not be read of the store (a damaged file, a skipped entry), one
   * sentence each naming the store file (config/trust_store.ts); empty when
   * all was. Read with the record, so after {@link problem} or {@link mark}.
   */
  get storeProblems(): string[] {
    this.#current();
    return [...this.#problems];
  }

  /**
   * Why the file's settings, its hooks among them (config/hooks.ts), do not
   * apply: the store's record of the file does not hold `hash`. Read again
   * when the store changed, so a running daemon sees `mcpx trust`.
   *
   * @param hash {@link settingsHash} of the file as the daemon loaded it.
   * @returns One sentence naming the file and the command that trusts it, or
   *   undefined when it is trusted with these settings.
   */
  settingsProblem(hash: string): string | undefined {
    const record = this.#current();
    if (record?.settings === hash) return undefined;
    const why = !record
      ? "is a project's configuration not trusted yet"
      : record.settings === undefined
      ? "was trusted before mcpx asked about settings"
      : "changed its settings since it was trusted";
    return `${this.file} ${why}, so its hooks do not run; review them, then run \`${
      trustCommand(this.file)
    }\` (an agent should ask its user to run that, not run it itself)`;
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
      const store = stamp === "absent" ? undefined : readTrustStore(this.#store);
      this.#record = store?.files[this.realPath];
      this.#problems = store?.problems ?? [];
    }
    return this.#record;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The script environment: every variable mcpx adds to the environment of a
 * script it starts, and of a hook it runs, declared once as {@link SCRIPT_ENV},
 * set by the one function of each setter ({@link scriptEnv} for a script;
 * engine/hook_env.ts `observeHookEnv` and `execHookEnv` for hooks), and rendered to `docs/script-environment.md` by
 * {@link renderScriptEnvMarkdown}. `scripts/script_env_test.ts` holds the
 * table, the function, the document and the code that reads the variables to
 * each other.
 *
 * Run `deno run -A scripts/script_env.ts --markdown > docs/script-environment.md`
 * after editing the table.
 *
 * Source: spec 004 (the script environment); decision 0004.
 *
 * @module
 */

import { ROOT_URL } from "../core/root.ts";

/** Who puts a variable into a child's environment. */
export type EnvSetter =
  /** `mcpx run` / `mcpx exec`, through {@link scriptEnv}. */
  | "runner"
  /** The daemon's declared-hook runner (engine/hook_runner.ts), through engine/hook_env.ts `observeHookEnv`. */
  | "hook-runner"
  /**
   * A run's exec hooks, for `mcpx run` / `mcpx exec` and `mcpx serve`'s
   * `mcpx_run` / `mcpx_exec` (runner/exec_hooks.ts), through engine/hook_env.ts `execHookEnv`.
   */
  | "exec-hooks"
  /** Whatever started mcpx (an agent harness, an editor plugin, a shell). */
  | "host";

/** Who reads a variable. */
export type EnvReader =
  /** The generated client (`client/script_runtime.ts`, copied into `mcpx-client.ts`). */
  | "client"
  /** An `mcpx` command run inside the script or a shell it opens (`cli/`). */
  | "mcpx"
  /** The script's own code, and programs it starts. */
  | "script"
  /** The hook's command. */
  | "hook";

/** One variable of the script environment. */
export interface ScriptEnvVariable {
  /** The variable, `MCPX_…`. */
  readonly name: string;
  /** Who sets it; `runner` means {@link scriptEnv} returns it. */
  readonly setBy: readonly EnvSetter[];
  /** When it is set and what value it has when there is nothing to say. */
  readonly when: string;
  /** What the value is. */
  readonly meaning: string;
  /** Who reads it; a test checks `client` against the client's source and `mcpx` against `cli/`. */
  readonly readBy: readonly EnvReader[];
}

/** Every variable mcpx adds to a script's environment, in the order the document lists them. */
export const SCRIPT_ENV: readonly ScriptEnvVariable[] = [
  {
    name: "MCPX_SESSION",
    setBy: ["runner"],
    when: "always",
    meaning:
      "The key the script's tool calls are leased under: `--session`, else `MCPX_SESSION_ID`, " +
      "else a key made up for this run alone.",
    readBy: ["client"],
  },
  {
    name: "MCPX_SESSION_ID",
    setBy: ["host", "runner"],
    when: "always; the runner hands on what it was given, empty when it was given nothing",
    meaning: "The session the agent's host assigned. It outlives one command, which is why " +
      "session-scoped servers key on it; a run with its own key for `MCPX_SESSION` still " +
      "hands this on unchanged.",
    readBy: ["mcpx"],
  },
  {
    name: "MCPX_PARENT_SESSION_ID",
    setBy: ["host", "runner"],
    when: "always; the runner hands on what it was given, empty when there is no parent",
    meaning: "The session that started this one, so an agent and its subagents can share a " +
      "`parent-session`-scoped server.",
    readBy: ["client", "mcpx"],
  },
  {
    name: "MCPX_ATTACH",
    setBy: ["host"],
    when: "after `mcpx session attach <name> --take-over`, which prints the line that exports " +
      "it; a run inherits it unchanged",
    meaning: "The attachment that makes its holder the writer of a session taken over: calls " +
      "under that session without it are refused (`session-taken-over`), so the script's " +
      "client sends it with each call (decision 0085).",
    readBy: ["client", "mcpx"],
  },
  {
    name: "MCPX_TRACE_IDS",
    setBy: ["host"],
    when: "when the host has ids to give; the runner hands it on unchanged",
    meaning: 'What the host knows and the agent does not, as JSON pairs such as `[["session_id",' +
      '"abc"],["worktree","/p"]]` (an entry longer than a pair names several ids for one key). ' +
      "Every log record the caller causes, in the daemon and in the run, carries each as " +
      "`id.<key>`; the ids mcpx establishes (`id.session`, `id.parent_session`, `id.run`) win " +
      "over a pair of the same key.",
    readBy: ["client", "mcpx"],
  },
  {
    name: "MCPX_INPUT",
    setBy: ["host"],
    when: "when the host knows nothing in this run can answer a question mid-call",
    meaning: "`report`: a server's question during a call is never asked inline, even on a " +
      "terminal; the call exits 75 with the question and the command that answers it " +
      "(spec 004; decision 0040). Unset, a question for a person is asked inline on a terminal.",
    readBy: ["mcpx"],
  },
  {
    name: "MCPX_EPHEMERAL",
    setBy: ["runner"],
    when: "always",
    meaning:
      "`1` when `MCPX_SESSION` was made up for this run, so what it leased may stop when the " +
      "run ends, and the questions its calls raise belong to whoever ran it, who named no " +
      "session (decision 0059); `0` otherwise.",
    readBy: ["client", "script"],
  },
  {
    name: "MCPX_RUN",
    setBy: ["runner"],
    when: "always",
    meaning: "This run's id, fresh for every run; the client puts it on every record the script " +
      "leaves, so they can be told apart from another run's.",
    readBy: ["client"],
  },
  {
    name: "MCPX_ENDPOINT",
    setBy: ["runner"],
    when: "always",
    meaning: "Where the daemon answers, as an address: `unix:<socket path>` for a local daemon, " +
      "`http://host:port` for the one `daemon.endpoint` names. The generated client uses it " +
      "when `MCPX_SOCKET` is empty.",
    readBy: ["client", "script"],
  },
  {
    name: "MCPX_SOCKET",
    setBy: ["runner"],
    when: "always; empty when the daemon is not on this machine",
    meaning: "The daemon's unix socket, the fastest way to reach it.",
    readBy: ["client"],
  },
  {
    name: "MCPX_DAEMON_PID",
    setBy: ["runner"],
    when: "always; empty when the runner did not learn it",
    meaning: "The pid of the daemon behind `MCPX_SOCKET`, named when a call's connection " +
      "is lost after it was sent.",
    readBy: ["client"],
  },
  {
    name: "MCPX_CWD",
    setBy: ["runner"],
    when: "always",
    meaning:
      "The directory `mcpx` was run from (the script runs there too); sent with every call for " +
      "`cwd` scoping.",
    readBy: ["client"],
  },
  {
    name: "MCPX_PID",
    setBy: ["runner"],
    when: "always",
    meaning: "The pid of the `mcpx` process that started the script; sent for `pid` scoping.",
    readBy: ["client"],
  },
  {
    name: "MCPX_ENTRY",
    setBy: ["runner"],
    when: "always",
    meaning:
      "The file the runtime was started on: the generated launcher, or the script itself under " +
      "`--no-launcher` (for `mcpx exec`, a generated file).",
    readBy: ["script"],
  },
  {
    name: "MCPX_CLIENT",
    setBy: ["runner"],
    when: "always",
    meaning: "The generated client module (`mcpx-client.ts`) the script imports.",
    readBy: ["script"],
  },
  {
    name: "MCPX_CONFIG_PATH",
    setBy: ["runner"],
    when: "always; empty when no configuration file is in effect",
    meaning: "The configuration file this run's servers come from.",
    readBy: ["script"],
  },
  {
    name: "MCPX_SCRIPT_DIRS",
    setBy: ["runner"],
    when: "always",
    meaning: "The places searched for named scripts, nearest first, separated by `:` (see " +
      "`docs/scripts.md`).",
    readBy: ["script"],
  },
  {
    name: "MCPX_RUNTIME",
    setBy: ["runner"],
    when: "always",
    meaning: "The runtime running the script: `deno`, `bun` or `node`.",
    readBy: ["script"],
  },
  {
    name: "MCPX_LOG_LEVEL",
    setBy: ["runner"],
    when: "always",
    meaning:
      "The least severe record the script's log keeps (`debug`, `info`, `warn`, `error`). An " +
      "`mcpx` run inside the script reads it as the setting `logging.level`.",
    readBy: ["client", "mcpx"],
  },
  {
    name: "MCPX_LOG_SOURCE",
    setBy: ["runner"],
    when: "always",
    meaning:
      "From which level records carry their call site: a level name, `true` for all, `false` " +
      "for none.",
    readBy: ["client"],
  },
  {
    name: "MCPX_OUTPUT",
    setBy: ["runner"],
    when: "always; empty unless the run is wrapped",
    meaning:
      "`json` when `mcpx --json run` wraps the whole run in one JSON document: `emit()` and the " +
      "returned value then go to records on stderr instead of stdout.",
    readBy: ["client"],
  },
  {
    name: "MCPX_HOOK_NAME",
    setBy: ["hook-runner"],
    when: "always",
    meaning: "The hook's name: its key under `hooks.observe` in the configuration.",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_PHASE",
    setBy: ["hook-runner", "exec-hooks"],
    when: "always",
    meaning: "The hook's phase: `observe` for a hook the configuration declares; `pre`, " +
      "`onSuccess`, `onError` or `post` for a run's exec hook.",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_POINT",
    setBy: ["exec-hooks"],
    when: "always",
    meaning: "What an exec hook is attached to: `script` (the only point so far).",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_ERROR",
    setBy: ["exec-hooks"],
    when: "always; empty but for an `onError` hook",
    meaning: "Why the script failed, in one line of at most 1024 bytes: its uncaught error's " +
      "headline, or how it exited. The whole context (the error as reported, the exit code, " +
      "the run's id) is JSON on the hook's stdin.",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_EVENT_KIND",
    setBy: ["hook-runner"],
    when: "always",
    meaning: "The kind of the event the hook runs for (`server.crashed`); the whole event is " +
      "JSON on the hook's stdin.",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_EVENT_SEQ",
    setBy: ["hook-runner"],
    when: "always",
    meaning: "The event's sequence number on the daemon's event bus.",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_EVENT_SERVER",
    setBy: ["hook-runner"],
    when: "always; empty when the event names no server",
    meaning: "The server (namespace) the event is about.",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_EVENT_SESSION",
    setBy: ["hook-runner"],
    when: "always; empty when the event belongs to no session",
    meaning: "The session the event belongs to.",
    readBy: ["hook"],
  },
  {
    name: "MCPX_HOOK_EVENT_URI",
    setBy: ["hook-runner"],
    when: "always; empty when the event names no resource",
    meaning: "The resource URI the event is about (`resource.updated`).",
    readBy: ["hook"],
  },
];

/** What the runner knows about one run; {@link scriptEnv} turns it into variables. */
export interface ScriptFacts {
  /** The lease key for this run's calls (`MCPX_SESSION`). */
  session: string;
  /** The host's session id, handed on (`MCPX_SESSION_ID`); absent: empty. */
  sessionId?: string;
  /** The host's parent session id, handed on (`MCPX_PARENT_SESSION_ID`); absent: empty. */
  parentSessionId?: string;
  /** True when `session` was made up for this run alone. */
  ephemeral: boolean;
  /** This run's id. */
  run: string;
  /** The daemon's unix socket path; empty when the daemon is remote. */
  socket: string;
  /** The daemon's pid, when the runner learnt it (its `health` answer). */
  daemonPid?: number;
  /** The daemon's address; absent: `unix:<socket>`. */
  endpoint?: string;
  /** The caller's working directory (absolute). */
  cwd: string;
  /** The pid of the `mcpx` process that starts the script. */
  pid: number;
  /** The file the runtime is started on (absolute). */
  entry: string;
  /** The generated client module (absolute). */
  client: string;
  /** The configuration file in effect, or null when there is none. */
  configPath: string | null;
  /** The places searched for named scripts, nearest first (scripts/resolve.ts `scriptDirs`). */
  scriptDirs: string[];
  runtime: "deno" | "bun" | "node";
  /** `logging.level`: debug, info, warn or error. */
  logLevel: string;
  /** `logging.source`: a level name, `true` or `false`. */
  logSource: string;
  /** True under `mcpx --json run|exec`. */
  outputJson: boolean;
}

/**
 * The variables mcpx adds to a script's environment: exactly the entries of
 * {@link SCRIPT_ENV} that the runner sets, every one present (empty when there
 * is nothing to say, so a nested run never inherits an outer run's value). The
 * runner spreads the result over the environment it inherited.
 *
 * @param facts What the runner knows about this run.
 * @returns Variable name → value.
 * @throws {TypeError} When a fact holds something a variable cannot carry
 *   (a directory list entry containing `:`, a non-integer pid).
 * @example
 * ```ts
 * import { scriptEnv } from "./script_env.ts";
 * const env = scriptEnv({
 *   session: "run-1", ephemeral: true, run: "r1", socket: "/tmp/d.sock", cwd: "/w",
 *   pid: 42, entry: "/c/l.ts", client: "/w/mcpx-client.ts", configPath: null,
 *   scriptDirs: ["/w/.mcpx/scripts"], runtime: "deno", logLevel: "info",
 *   logSource: "warn", outputJson: false,
 * });
 * if (env.MCPX_ENDPOINT !== "unix:/tmp/d.sock" || env.MCPX_CONFIG_PATH !== "") throw new Error();
 * ```
 */
export function scriptEnv(facts: ScriptFacts): Record<string, string> {
  if (!Number.isInteger(facts.pid)) throw new TypeError(`pid must be an integer, got ${facts.pid}`);
  const odd = facts.scriptDirs.find((dir) => dir.includes(":"));
  if (odd !== undefined) {
    throw new TypeError(
      `script directory ${JSON.stringify(odd)} contains ':', which MCPX_SCRIPT_DIRS uses as its ` +
        `separator; rename or link the directory`,
    );
  }
  const remote = /^[a-z][a-z0-9+.-]*:/i.test(facts.socket);
  return {
    MCPX_SESSION: facts.session,
    MCPX_SESSION_ID: facts.sessionId ?? "",
    MCPX_PARENT_SESSION_ID: facts.parentSessionId ?? "",
    MCPX_EPHEMERAL: facts.ephemeral ? "1" : "0",
    MCPX_RUN: facts.run,
    MCPX_ENDPOINT: facts.endpoint ??
      (remote ? facts.socket : facts.socket ? `unix:${facts.socket}` : ""),
    // A daemon elsewhere (daemon.endpoint) has no socket on this machine.
    MCPX_SOCKET: remote ? "" : facts.socket,
    MCPX_DAEMON_PID: facts.daemonPid === undefined ? "" : String(facts.daemonPid),
    MCPX_CWD: facts.cwd,
    MCPX_PID: String(facts.pid),
    MCPX_ENTRY: facts.entry,
    MCPX_CLIENT: facts.client,
    MCPX_CONFIG_PATH: facts.configPath ?? "",
    MCPX_SCRIPT_DIRS: facts.scriptDirs.join(":"),
    MCPX_RUNTIME: facts.runtime,
    MCPX_LOG_LEVEL: facts.logLevel,
    MCPX_LOG_SOURCE: facts.logSource,
    MCPX_OUTPUT: facts.outputJson ? "json" : "",
  };
}

const SETTER_LABEL: Record<EnvSetter, string> = {
  runner: "`mcpx run` / `mcpx exec`",
  "hook-runner": "the daemon, for a hook the configuration declares",
  "exec-hooks": "`mcpx run` / `mcpx exec` and `mcpx_run` / `mcpx_exec`, for an exec hook",
  host: "the host that started mcpx (agent harness, editor plugin)",
};

const READER_LABEL: Record<EnvReader, string> = {
  client: "the generated client",
  mcpx: "`mcpx` run inside the script",
  script: "the script itself",
  hook: "the hook itself",
};

const INTRO = `# The script environment

<!-- Generated by \`deno run -A scripts/script_env.ts --markdown\` from the table in
scripts/script_env.ts; edit that file, not this one. A test fails when they differ. -->

\`mcpx run\` and \`mcpx exec\` start a script with the environment \`mcpx\` itself was
started with, plus the variables below. Nothing inherited is removed or filtered:
a script sees the same \`PATH\`, tokens and keys as the shell that ran \`mcpx\`.

These variables are facts about one run (which session, which daemon, which
files) handed from \`mcpx\` to the script and to the generated client. They are
not settings: knobs are in \`mcpx config --schema\`. One name is both:
\`MCPX_LOG_LEVEL\` is written for the script, and an \`mcpx\` command run inside
the script reads it as the setting \`logging.level\`.

Every variable the runner sets is always present, empty when there is nothing to
say, so a run inside a run never sees its parent's values by mistake.

A hook is given variables of its own (the \`MCPX_HOOK_…\` rows), on top of the
environment of whoever runs it: the daemon's for a hook the configuration declares
(\`hooks.observe\`, run for events of the daemon's bus), the caller's for a run's exec
hook (\`--hook-pre\`, \`--hook-on-success\`, \`--hook-on-error\`, \`--hook-post\`). The
whole event or run context is JSON on the hook's stdin ([configuration.md](configuration.md#hooks)).

The generated client reaches the daemon through \`MCPX_SOCKET\` for everything a
namespace offers: tool calls, and \`ns.$prompts\` and \`ns.$resources\` (prompts and
resources, [scripts.md](scripts.md)), each with the caller's session, run and
profile selection from these variables.
`;

/**
 * The reference document for the script environment, generated from
 * {@link SCRIPT_ENV}: a short introduction, then one table row per variable.
 *
 * @returns Markdown, ending in a newline (the content of `docs/script-environment.md`).
 */
export function renderScriptEnvMarkdown(): string {
  const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
  const rows = SCRIPT_ENV.map((v) =>
    `| \`${v.name}\` | ${cell(v.setBy.map((s) => SETTER_LABEL[s]).join("; "))} | ${
      cell(v.when)
    } | ${cell(v.meaning)} | ${cell(v.readBy.map((r) => READER_LABEL[r]).join("; "))} |`
  );
  return [
    INTRO,
    "## The variables",
    "",
    "| variable | set by | when | what it is | read by |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

/**
 * `docs/script-environment.md` as it is checked in: {@link renderScriptEnvMarkdown}
 * formatted by `deno fmt` with the repository's settings, so the file is
 * both generated and `deno fmt --check` clean.
 *
 * @param options.signal Cancels the formatter.
 * @returns The document's text.
 * @throws {Error} When `deno fmt` fails (its stderr in the message).
 */
export async function scriptEnvDocument(options: { signal?: AbortSignal } = {}): Promise<string> {
  options.signal?.throwIfAborted();
  const config = new URL("deno.json", ROOT_URL).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--config", config, "--ext=md", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: options.signal,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(renderScriptEnvMarkdown()));
  await writer.close();
  const out = await child.output();
  const decoder = new TextDecoder();
  if (!out.success) throw new Error(`deno fmt failed: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

if (import.meta.main) {
  if (Deno.args[0] !== "--markdown") {
    console.error(
      "usage: deno run -A scripts/script_env.ts --markdown > docs/script-environment.md",
    );
    Deno.exit(2);
  }
  await Deno.stdout.write(new TextEncoder().encode(await scriptEnvDocument()));
}

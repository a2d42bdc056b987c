/**
 * One script run, shared by `mcpx run` and `mcpx exec`: check everything
 * knowable in one pass, write the client beside the script and the launcher
 * in the cache, start the runtime, split its stderr into records and text,
 * and report (spec 000, "The script contract", "Checking before running";
 * decision 0004).
 *
 * @module
 */

import { configRedactor } from "../config/secrets.ts";
import type { RunnerHost, ScriptFlags, ScriptProcess, ScriptSpawnOptions } from "./host.ts";
import { envOverrides } from "./env_pairs.ts";
import { findRuntime, type Runtime } from "./runtime.ts";
import {
  checkConfinement,
  confinedCommand,
  type Confinement,
  sandboxNote,
  signalTargets,
} from "./confine.ts";
import { exportedNames } from "./exports.ts";
import { scriptNamespaces } from "./script_namespaces.ts";
import { RecordOutput } from "./record_output.ts";
import { readChildOutput } from "./child_output.ts";
import { forwardSignals, signalNumber } from "./forward_signals.ts";
import { ensureClient, type EnsuredClient, exists, writeIfChanged } from "../client/client_file.ts";
import { sha256Hex as sha256 } from "../core/sha256.ts";
import { resolveSources } from "../launcher/source.ts";
import {
  buildLauncher,
  BUILTIN_PLACEHOLDERS,
  type LauncherOptions,
} from "../launcher/default_template.ts";
import { placeholdersFromFiles, readPlaceholderFiles } from "../launcher/placeholder_file.ts";
import { writeBootProgram } from "../launcher/boot.ts";
import type { Fill } from "../launcher/template.ts";
import { scriptEnv } from "../scripts/script_env.ts";
import { settingEnvName, type SettingName, settingOf } from "../config/settings.ts";
import type { ResolvedSettings } from "../config/resolve_settings.ts";
import { establishedIds, idAttributes } from "../logs/trace_ids.ts";
import { newSpanId } from "../logs/record.ts";
import { InputError, McpxError, StorageError, UsageError } from "../core/errors.ts";
import { readBoundedFile } from "../core/bounded_read.ts";
import { INPUT_MAX_BYTES, inputLimit } from "../config/input_limit.ts";
import { parseTimeoutFlag } from "../config/timeout_flag.ts";
import { VERSION } from "../core/version.ts";
import { dirname, join } from "../core/posix_path.ts";
import { toFileUrl } from "../core/file_url.ts";
import { writeClientResolver } from "./client_resolver.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import { type ExecHookRun, ExecHooks, scriptError } from "./exec_hooks.ts";

/** What to run. */
export interface ScriptRun {
  /** The script's absolute path. */
  path: string;
  /** Its name as the user gave it (`shot-flow`, `./x.ts`, `exec`). */
  name: string;
  /** Arguments for the script (its argv). */
  args: string[];
}

const SOURCE_OPTIONS = [
  ["before", "before"],
  ["prefix", "prefix"],
  ["suffix", "suffix"],
  ["on-success", "onSuccess"],
  ["on-error", "onError"],
] as const;

function list(value: string[] | undefined): string[] {
  return value ?? [];
}

/**
 * Runs one script to completion.
 *
 * @param ctx The command it runs under (runner/host.ts).
 * @param script What to run.
 * @param options The command's options as parsed (`timeout`, `env`, `env-file`,
 *   `launcher`, `before`…`on-error`, `export`, `no-launcher`, `no-capture-console`).
 * @returns The exit code (the script's own; 128 + n when a signal ended it) and, under
 *   `--json`, the run's document (record_output.ts `end`), which nothing printed.
 * @throws {UsageError} Listing every problem found before anything started.
 */
export async function runScript(
  ctx: RunnerHost,
  script: ScriptRun,
  options: ScriptFlags,
): Promise<{ exitCode: number; document: Record<string, unknown> | undefined }> {
  const problems: string[] = [];
  const settings = await ctx.settings();
  const value = <N extends SettingName>(name: N) => settingOf(settings, name);
  const json = await ctx.json();
  const noLauncher = options["no-launcher"] === true;

  let timeoutMs: number | undefined;
  if (typeof options.timeout === "string") {
    try {
      timeoutMs = parseTimeoutFlag(options.timeout);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error.message);
    }
  }

  const limit = inputLimit(value(INPUT_MAX_BYTES));
  const overrides = await envOverrides(
    list(options.env),
    list(options["env-file"]),
    ctx.cwd,
    limit,
  );
  problems.push(...overrides.problems);

  const probe = value("plumbing.sourceProbePaths") !== false;
  const fills: Record<string, string[]> = {};
  for (const [flag, key] of SOURCE_OPTIONS) {
    const { sources, problems: found } = await resolveSources(list(options[flag]), {
      cwd: ctx.cwd,
      probe,
      limit,
    });
    problems.push(...found.map((p) => `--${flag}: ${p}`));
    fills[key] = sources.map((s) => s.text);
  }
  let template: string | undefined;
  if (typeof options.launcher === "string") {
    const { sources, problems: found } = await resolveSources([options.launcher], {
      cwd: ctx.cwd,
      probe,
      limit,
    });
    problems.push(...found.map((p) => `--launcher: ${p}`));
    template = sources[0]?.text;
  }
  if (noLauncher) {
    const ignored = (["launcher", ...SOURCE_OPTIONS.map(([flag]) => flag), "export"] as const)
      .filter((f) => options[f] !== undefined);
    if (ignored.length) {
      problems.push(
        `--no-launcher runs the script bare, so ${
          ignored.map((f) => `--${f}`).join(", ")
        } would do nothing; drop ${ignored.length > 1 ? "them" : "it"} or the --no-launcher`,
      );
    }
  }

  const placeholderPaths = value("paths.placeholders").split(":").filter(Boolean);
  let placeholders: Record<string, Fill> = {};
  if (placeholderPaths.length && !noLauncher) {
    const read = await readPlaceholderFiles(placeholderPaths, { cwd: ctx.cwd, limit });
    const declared = placeholdersFromFiles(read.files, BUILTIN_PLACEHOLDERS);
    problems.push(...read.problems, ...declared.problems);
    placeholders = declared.fills;
  }
  const repeatable = value("plumbing.launcherPlaceholderRepeat").split(",")
    .map((n) => n.trim().replace(/^@/, "")).filter(Boolean);

  let source = "";
  try {
    source = new TextDecoder().decode(await readBoundedFile(script.path, script.path, limit));
  } catch (error) {
    problems.push(
      error instanceof InputError
        ? error.message
        : `cannot read ${script.path}: ${(error as Error).message}`,
    );
  }
  if (typeof options.export === "string" && source) {
    const names = exportedNames(source);
    if (!names.includes(options.export)) {
      problems.push(
        `--export ${options.export}: ${script.path} has no such export; it exports ${
          names.length ? names.join(", ") : "nothing"
        }`,
      );
    }
  }

  // `--typecheck` sets `script.typecheck`, so a configuration can turn it on for every run.
  const typecheck = value("script.typecheck") === true;
  const runtime = await findRuntime(value("script.runtime"), ctx.env);
  if ("problem" in runtime) problems.push(runtime.problem);
  else if (typecheck && runtime.name !== "deno") {
    problems.push(
      `--typecheck needs deno: ${runtime.name} strips types without checking them; ` +
        "drop --typecheck or use --runtime deno",
    );
  }

  const scriptDir = dirname(script.path);
  const clientPath = join(scriptDir, "mcpx-client.ts");
  const launcherDir = join(ctx.paths().cacheDir, "launchers");
  const launcherOptions = (clientUrl: string): LauncherOptions => ({
    clientUrl,
    scriptUrl: toFileUrl(script.path),
    script: {
      path: script.path,
      name: script.name,
      args: script.args,
      ...(typeof options.export === "string" ? { export: options.export } : {}),
    },
    captureConsole: options["no-capture-console"] !== true,
    placeholders,
    repeatable,
    ...(template !== undefined ? { template } : {}),
    ...fills,
  });
  // A launcher is a function of these inputs and the client's path: built once, then reused
  // from the cache (expanding a template costs ~4 ms a run).
  const launcherKey = await sha256(
    JSON.stringify([VERSION, launcherOptions(""), rtName(value("script.runtime"))]),
  );
  const validated = join(launcherDir, `${launcherKey.slice(0, 32)}.ok`);
  if (!noLauncher && !(await exists(validated))) {
    // Checked now with a stand-in client path; built for real once the client exists.
    try {
      buildLauncher(launcherOptions(toFileUrl(clientPath)));
    } catch (error) {
      if (!(error instanceof McpxError)) throw error;
      problems.push(error.message);
    }
  }
  const hooks = new ExecHooks(options, {
    permissions: value("script.permissions"),
    timeoutMs: value("hooks.timeout"),
  });
  problems.push(...hooks.problems);
  const confinement = checkConfinement(
    value("script.permissions"),
    "problem" in runtime ? null : runtime,
    runtimeSource(settings),
    ctx.env,
  );
  if ("problems" in confinement) problems.push(...confinement.problems);

  if (problems.length) {
    throw new UsageError(
      problems.length === 1
        ? problems[0]
        : `${problems.length} problems, nothing was started:\n  ${problems.join("\n  ")}`,
    );
  }
  const rt = runtime as Runtime;

  // Servers start only now; one still starting after discovery.wait is not waited for (0010).
  const { namespaces, note } = await scriptNamespaces(ctx, value("discovery.wait"));
  if (note && !json) noteBeforeRun(ctx, note);
  // The health round trip overlaps the client's file checks; its failure is reported after theirs.
  const live = ctx.liveDaemonSocket();
  live.catch(() => {});
  let client: EnsuredClient;
  try {
    client = await ensureClient(namespaces, VERSION, scriptDir, ctx.paths().cacheDir);
  } catch (error) {
    // The cache's copy failing (a full disk) is not the script's folder's fault: it names its own path.
    if (error instanceof StorageError && dirname(error.path) !== scriptDir) throw error;
    throw new UsageError(
      `cannot write the generated client beside the script (${clientPath}): ${
        (error as Error).message
      }; copy the script to a writable directory, or write the client with \`mcpx client -o\``,
    );
  }
  if (client.kept && !json) noteBeforeRun(ctx, client.kept);
  const socket = await live;

  let entry = script.path;
  let launcher: string | undefined;
  if (!noLauncher) {
    // The launcher imports the cached client, which no other configuration's run rewrites.
    const name = (await sha256(launcherKey + client.cachedPath)).slice(0, 32);
    entry = launcher = join(launcherDir, `${name}.${rt.name === "node" ? "mts" : "ts"}`);
    if (!(await exists(entry))) {
      const launcherText = buildLauncher(launcherOptions(toFileUrl(client.cachedPath)));
      ensurePrivateDir(launcherDir, "mcpx's script launchers", { from: ctx.paths().cacheDir });
      await writeIfChanged(entry, launcherText, { private: true });
      await writePrivateFile(validated, "");
    }
    // Bun starts on a file that imports the launcher (launcher/boot.ts).
    if (rt.name === "bun") entry = await writeBootProgram(launcher);
  }
  if (typecheck) {
    // The script as an editor sees it: the globals declared, the client imported.
    const checkPath = join(launcherDir, `check-${(await sha256(script.path)).slice(0, 16)}.ts`);
    ensurePrivateDir(launcherDir, "mcpx's script launchers", { from: ctx.paths().cacheDir });
    await writeIfChanged(
      checkPath,
      `/// <reference path=${JSON.stringify(join(scriptDir, "mcpx-globals.d.ts"))} />\n` +
        `import ${JSON.stringify(toFileUrl(script.path))};\n`,
      { private: true },
    );
    const checkOptions: ScriptSpawnOptions = {
      args: ["check", "--quiet", checkPath],
      cwd: ctx.cwd,
      env: ctx.env,
      clearEnv: true,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
      detached: false,
    };
    const check = ctx.spawner
      ? await (await ctx.spawner.spawn(rt.path, checkOptions)).status
      : await new Deno.Command(rt.path, checkOptions).output();
    if (!check.success) {
      throw new McpxError(
        "typecheck-failed",
        `--typecheck: ${script.path} does not type-check (errors above); nothing ran`,
      );
    }
  }

  const minted = !ctx.session;
  const session = ctx.session ?? `run-${crypto.randomUUID().slice(0, 12)}`;
  const runId = newSpanId("run");
  const env = {
    ...ctx.env,
    ...scriptEnv({
      session,
      ...(ctx.env.MCPX_SESSION_ID ? { sessionId: ctx.env.MCPX_SESSION_ID } : {}),
      ...(ctx.env.MCPX_PARENT_SESSION_ID
        ? { parentSessionId: ctx.env.MCPX_PARENT_SESSION_ID }
        : {}),
      ephemeral: minted,
      run: runId,
      socket,
      ...(ctx.daemonPid === undefined ? {} : { daemonPid: ctx.daemonPid }),
      cwd: ctx.cwd,
      pid: ctx.spawner?.pid ?? Deno.pid,
      entry,
      client: noLauncher ? clientPath : client.cachedPath,
      configPath: (await ctx.config()).path,
      scriptDirs: await ctx.scriptDirs(),
      runtime: rt.name,
      logLevel: value("logging.level"),
      logSource: value("logging.source"),
      outputJson: json,
    }),
    ...selectionEnv(settings),
    // The token a daemon elsewhere requires, wherever the setting came from (a file included).
    ...(value("transport.bearerToken")
      ? { MCPX_TRANSPORT_BEARER_TOKEN: String(value("transport.bearerToken")) }
      : {}),
    ...(await ctx.traceEnv()),
    ...overrides.env,
  };

  // Exec hooks (runner/exec_hooks.ts): a failing `pre` throws, and nothing below starts.
  const hookRun: ExecHookRun = { run: runId, session, script: { ...script }, cwd: ctx.cwd };
  const hookPlace = { env: ctx.env, cwd: ctx.cwd, ...(ctx.signal ? { signal: ctx.signal } : {}) };
  if (hooks.any) await hooks.pre(hookRun, hookPlace);

  const output = new RecordOutput({
    io: ctx.io,
    json,
    format: value("logging.format"),
    level: value("logging.level"),
    stateDir: ctx.paths().stateDir,
    logsDir: await ctx.logsDir(),
    maxFileSize: value("logging.maxFileSize"),
    retentionMs: value("logging.retention"),
    maxDirSize: value("logging.maxDirSize"),
    runId,
    ids: idAttributes(
      ctx.traceIds(),
      establishedIds({ session, parentSession: ctx.env.MCPX_PARENT_SESSION_ID, run: runId }),
    ),
    ...(script.name === "exec" && script.path.includes("/exec/")
      ? { alias: { path: script.path, as: "<mcpx exec code>" } }
      : {}),
    redactor: configRedactor(await ctx.config(), ctx.env),
  });
  output.start({
    script: script.path,
    name: script.name,
    runtime: rt.name,
    session,
    ephemeral: minted,
    args: script.args,
  });

  // A pipe's reader can leave mid-run (`| head`): then the script's output passes through
  // mcpx's own, which ends quietly (decision 0013). A terminal or a file is inherited.
  const passStdout = !json && ctx.io.outBytes !== undefined && ctx.io.passChildStdout?.() === true;

  // A run holds each exclusive instance it uses until it ends: say what it waits for, and
  // release them at the end (issue 8, "a run is one caller").
  const config = await ctx.config();
  const exclusive = config.servers.some((s) => s.pool.sharing === "exclusive");
  const watch = exclusive ? new AbortController() : undefined;
  if (watch) {
    const { watchLeaseWaits } = await import("../wire/lease_waits.ts");
    watchLeaseWaits(socket, runId, (line) => output.note(line), {
      signal: watch.signal,
      version: VERSION,
    });
  }

  const confined = confinement as Confinement;
  const command = await confinedCommand(confined, rt, {
    scriptDir,
    entry,
    ...(launcher && launcher !== entry ? { launcher } : {}),
    client: noLauncher ? clientPath : client.cachedPath,
    ...(launcher && { resolver: await writeClientResolver(rt.name, client.cachedPath, launcher) }),
    socket,
  }, { args: script.args, cwd: ctx.cwd, env });
  const started = performance.now();
  const spawnOptions: ScriptSpawnOptions = {
    args: command.args,
    cwd: ctx.cwd,
    env,
    clearEnv: true,
    stdin: ctx.scriptStdin ?? "inherit",
    stdout: json || passStdout ? "piped" : "inherit",
    stderr: "piped",
    detached: command.detached,
  };
  const child: ScriptProcess = ctx.spawner
    ? await ctx.spawner.spawn(command.path, spawnOptions)
    : new Deno.Command(command.path, spawnOptions).spawn();
  // The process that started the runtime hears the signals meant for it (a relayed run's
  // thin client tells the front of them); mcpx signals the runtime, or the sandbox's.
  const signals = forwardSignals(
    () => signalTargets(command, child.pid),
    ctx.spawner && ((listener) => ctx.spawner!.onSignal(listener)),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => {
      output.note(`the script ran past --timeout ${options.timeout} and was stopped`);
      signals.send("SIGTERM");
    }, timeoutMs);
  }

  const stop = () => signals.send("SIGTERM");
  ctx.signal?.addEventListener("abort", stop, { once: true });
  if (ctx.signal?.aborted) stop();
  const streams = readChildOutput(
    child,
    output,
    rt.name,
    json
      ? { mode: "collect" }
      : passStdout
      ? { mode: "pass", write: ctx.io.outBytes! }
      : { mode: "inherit" },
  );
  const status = await child.status;
  const stdout = await streams.finish(status);
  // Touching the timers costs ~6 ms the first time in a process (Deno 2.9): only when used.
  if (timer !== undefined) clearTimeout(timer);
  ctx.signal?.removeEventListener("abort", stop);
  signals[Symbol.dispose]();
  const exitCode = status.signal ? 128 + signalNumber(status.signal) : status.code;
  const durationMs = Math.round(performance.now() - started);
  if (hooks.any) {
    const error = exitCode === 0 ? undefined : scriptError(exitCode, output.error);
    const outcome = { exitCode, durationMs, ...(error ? { error } : {}) };
    for (const note of await hooks.after(hookRun, outcome, hookPlace)) output.note(note);
  }
  if (exitCode === 1) {
    const note = await sandboxNote(command, rt, confined.level);
    if (note) output.note(note);
  }

  // A daemon that died under the script's calls left its servers running: end them.
  await ctx.sweepIfDaemonDied();
  watch?.abort();
  if (exclusive) {
    try {
      await ctx.request("endRun", { run: runId });
    } catch { /* an older daemon: the run's holds end when the daemon sees this pid gone */ }
  }
  const sessionScoped = config.servers.some((s) =>
    s.pool.scope === "session" || s.pool.scope === "parent-session"
  );
  if (minted && sessionScoped) {
    // The session was this run's alone: its instances go with it.
    try {
      await ctx.request("endSession", { session });
    } catch { /* an older daemon without the operation: the reaper takes them */ }
  }
  return { exitCode, document: output.end({ exitCode, durationMs, stdout }) };
}

/**
 * The profile selection given as flags or in a file, as the variables that
 * set it: the client sends it with every call (the daemon refuses a namespace
 * outside it, decision 0015), and an `mcpx` command the script runs sees the
 * same namespaces as its client.
 */
function selectionEnv(settings: ResolvedSettings): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["profiles.active", "profiles.skipDefault", "profiles.all"]) {
    const setting = settings.values[name];
    if (setting && setting.source !== "default") env[settingEnvName(name)] = String(setting.value);
  }
  return env;
}

/** Where `script.runtime` was set, as the user wrote it (`--runtime node`), for a refusal. */
function runtimeSource(settings: ResolvedSettings): string {
  const { value, source } = settings.values["script.runtime"];
  if (source.startsWith("flag:")) return `${source.slice(5)} ${value}`;
  if (source.startsWith("env:")) return `${source.slice(4)}=${value}`;
  if (source.startsWith("file:")) return `script.runtime ${value} (${source.slice(5)})`;
  return `script.runtime ${value}`;
}

/** The runtime a setting names (the launcher's extension depends on it). */
function rtName(setting: string): string {
  return setting === "auto" ? "deno" : setting;
}

/** A note from mcpx before the run starts (stderr; under --json it is dropped, not mixed in). */
function noteBeforeRun(ctx: RunnerHost, message: string): void {
  ctx.io.err(`note: ${message}\n`);
}

/**
 * A run's exec hooks (issue 28; spec 004's `MCPX_HOOK_PHASE`, `MCPX_HOOK_POINT`
 * and `MCPX_HOOK_ERROR` rows; decision 0081): shell commands given with one
 * `mcpx run`/`mcpx exec` (`--hook-pre`, `--hook-post`, `--hook-on-error`,
 * `--hook-on-success`), or with one call of `mcpx serve`'s `mcpx_exec` and
 * `mcpx_run` (the same fields), run around the script:
 *
 * | phase       | runs                                     | when it fails                          |
 * | ----------- | ---------------------------------------- | -------------------------------------- |
 * | `pre`       | before the script starts                 | the script does not run; the run fails |
 * | `onSuccess` | after the script exited 0                | a note; the run's outcome stands       |
 * | `onError`   | after it exited otherwise (`MCPX_HOOK_ERROR`) | a note; the run's outcome stands  |
 * | `post`      | last, whatever the outcome               | a note; the run's outcome stands       |
 *
 * Each command runs by `sh -c` in the caller's directory with the caller's
 * environment and the variables of engine/hook_env.ts `execHookEnv`, the
 * hook's context as JSON on stdin, bounded by `hooks.timeout`
 * (engine/hook_process.ts). Commands of one phase run one after another, in
 * the order given; a failing `pre` stops the ones after it. What a hook
 * prints is not the script's output: it is kept only to say why a hook failed.
 *
 * A hook runs outside the script's sandbox, so hooks are refused when
 * `script.permissions` is narrower than `all`.
 *
 * @module
 */

import { execHookEnv, type ExecHookPhase } from "../engine/hook_env.ts";
import { type HookProcessResult, runHookProcess } from "../engine/hook_process.ts";
import { McpxError } from "../core/errors.ts";
import type { ScriptFlags } from "./host.ts";

/** Each phase's flag, as the command line spells it (and problems name it). */
export const EXEC_HOOK_FLAGS: Readonly<Record<ExecHookPhase, keyof ScriptFlags>> = {
  pre: "hook-pre",
  onSuccess: "hook-on-success",
  onError: "hook-on-error",
  post: "hook-post",
};

/** What every hook of a run is told on stdin, besides its phase and the outcome. */
export interface ExecHookRun {
  /** The run's id (`MCPX_RUN` of the script). */
  run: string;
  /** The session its calls are leased under. */
  session: string;
  script: { name: string; path: string; args: string[] };
  /** The caller's directory, where hooks run. */
  cwd: string;
}

/** How the script ended, for the hooks after it. */
export interface ExecHookOutcome {
  exitCode: number;
  durationMs: number;
  /** Why it failed (its uncaught error's headline, or how it exited); absent on success. */
  error?: string;
}

/** Where hooks run. */
export interface ExecHookPlace {
  env: Record<string, string>;
  cwd: string;
  /** Ends a running hook (the run cancelled). */
  signal?: AbortSignal;
}

/** A run's exec hooks, read from its flags. */
export class ExecHooks {
  readonly #commands: Record<ExecHookPhase, string[]>;
  readonly #timeoutMs: number;
  /** Problems with the hooks as given, one sentence each (reported before anything starts). */
  readonly problems: string[] = [];

  /**
   * @param flags The run's options (`hook-pre` … `hook-post`, each a list of shell commands).
   * @param settings `permissions`: `script.permissions`; `timeoutMs`: `hooks.timeout`, in ms.
   */
  constructor(flags: ScriptFlags, settings: { permissions: string; timeoutMs: number }) {
    this.#timeoutMs = settings.timeoutMs;
    const commands = {} as Record<ExecHookPhase, string[]>;
    for (const [phase, flag] of Object.entries(EXEC_HOOK_FLAGS) as [ExecHookPhase, string][]) {
      const given = (flags[flag as keyof ScriptFlags] ?? []) as string[];
      commands[phase] = given;
      for (const command of given) {
        if (command.trim() === "") {
          this.problems.push(`--${flag}: the command is empty; give a shell command to run`);
        }
      }
    }
    this.#commands = commands;
    const given = Object.entries(EXEC_HOOK_FLAGS).filter(([phase]) =>
      commands[phase as ExecHookPhase].length > 0
    ).map(([, flag]) => `--${flag}`);
    if (given.length && settings.permissions.trim() !== "all") {
      this.problems.push(
        `${given.join(", ")}: exec hooks run outside the script's sandbox, so they are refused ` +
          `under script.permissions=${settings.permissions}; drop them, or set ` +
          `script.permissions to all`,
      );
    }
  }

  /** Whether any hook was given. */
  get any(): boolean {
    return Object.values(this.#commands).some((list) => list.length > 0);
  }

  /**
   * Runs the `pre` hooks, in order, before the script starts.
   *
   * @throws {McpxError} `hook-failed` at the first that fails (exit code other
   *   than 0, past `hooks.timeout`, not found): the script must not start.
   */
  async pre(run: ExecHookRun, place: ExecHookPlace): Promise<void> {
    for (const command of this.#commands.pre) {
      const result = await this.#runOne("pre", command, { phase: "pre", ...run }, place);
      if (result.outcome !== "ok") {
        throw new McpxError(
          "hook-failed",
          `${failure("pre", command, result)}; the script did not run (a failing --hook-pre ` +
            `stops the run)`,
        );
      }
    }
  }

  /**
   * Runs the hooks after the script: `onSuccess` or `onError`, then `post`.
   *
   * @returns A note for each hook that failed; the run's outcome does not change.
   */
  async after(run: ExecHookRun, outcome: ExecHookOutcome, place: ExecHookPlace): Promise<string[]> {
    const notes: string[] = [];
    const phases: ExecHookPhase[] = [outcome.exitCode === 0 ? "onSuccess" : "onError", "post"];
    for (const phase of phases) {
      for (const command of this.#commands[phase]) {
        const context = { phase, ...run, ...outcome };
        const result = await this.#runOne(phase, command, context, place, outcome.error);
        if (result.outcome !== "ok") notes.push(failure(phase, command, result));
      }
    }
    return notes;
  }

  #runOne(
    phase: ExecHookPhase,
    command: string,
    context: Record<string, unknown>,
    place: ExecHookPlace,
    error?: string,
  ): Promise<HookProcessResult> {
    return runHookProcess({
      command,
      env: { ...place.env, ...execHookEnv(phase, error) },
      cwd: place.cwd,
      stdin: `${JSON.stringify({ point: "script", hook: command, ...context })}\n`,
      timeoutMs: this.#timeoutMs,
      ...(place.signal ? { signal: place.signal } : {}),
    });
  }
}

/** `--hook-post \`cmd\` failed: it exited with code 3: <its stderr's last line>`. */
function failure(phase: ExecHookPhase, command: string, result: HookProcessResult): string {
  const last = result.stderrTail.split("\n").filter((l) => l.trim() !== "").at(-1);
  const shown = command.length > 80 ? `${command.slice(0, 77)}...` : command;
  return `--${EXEC_HOOK_FLAGS[phase]} \`${shown}\` failed: ${result.reason ?? result.outcome}${
    last ? ` (stderr: ${last.slice(0, 300)})` : ""
  }`;
}

/**
 * Why a script failed, in one line, for `onError` hooks: its uncaught error's
 * headline when it reported one, else how it ended.
 *
 * @param exitCode The script's exit code (128 + n after signal n).
 * @param reported The headline of its `run.error` record, if any.
 */
export function scriptError(exitCode: number, reported: string | undefined): string {
  if (reported) return reported;
  return exitCode > 128
    ? `the script was ended by signal ${exitCode - 128}`
    : `the script exited with code ${exitCode}`;
}

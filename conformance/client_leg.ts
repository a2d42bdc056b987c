/**
 * The official conformance suite's client leg, with mcpx as the client, under
 * two runner versions: {@link RUNNER} (0.2.0-alpha.12) runs every client
 * scenario of spec revisions 2025-11-25 and 2026-07-28, the 2025-03-26 auth
 * back-compatibility ones, and the extension scenarios that are not auth
 * (the Skills extension's); {@link RUNNER_0_1} (0.1.16, the last 0.1 release)
 * runs every client scenario it knows but its extensions. Each run has
 * conformance/client.ts as the client command; the auth ones go in a section
 * of their own. The results are written to docs/conformance.md
 * (conformance/client_doc.ts renders it).
 *
 * `deno task conformance` (also a step of .ci/run, outside the test suite);
 * `--auth-only` runs the auth scenarios alone and keeps the rest of the
 * document. Scenarios that fail do not fail the script: the document records
 * them. It exits non-zero only when it could not measure (a runner would not
 * start, or gave no results). The server leg (conformance/server_leg.ts)
 * writes its own section of the same document, which this script keeps.
 *
 * The runners (`@modelcontextprotocol/conformance`, pinned below) need Node
 * 22 or newer; they run under Deno instead (`npm:` specifier, no
 * node_modules), which measured the same and needs no second runtime.
 * Every daemon the scenarios start lives in a temporary state directory,
 * stopped and removed at the end.
 *
 * @module
 */

import { join } from "node:path";
import { keepServerSection, type ScenarioRow } from "./doc_sections.ts";
import { readChecks, resultOf } from "./run_checks.ts";
import {
  AUTH_HEADING,
  renderAuthSection,
  renderDocument,
  type RunnerResults,
} from "./client_doc.ts";

/** The runner, pinned: 0.2.0-alpha.12 is the first to carry the 2026-07-28 scenarios. */
export const RUNNER = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";

/**
 * The 0.1 runner, pinned: 0.1.16, the last release before the 2026-07-28
 * scenarios; it knows 2025-03-26, 2025-06-18, 2025-11-25 and a draft. It is
 * not in deno.lock and runs with `--no-lock`: resolving it there moves the
 * hono that mcpx's own MCP SDK uses to a newer release, and a test tool must
 * not change what mcpx is built with.
 */
export const RUNNER_0_1 = "npm:@modelcontextprotocol/conformance@0.1.16";

/** The spec revisions measured. */
export const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

/** The revision {@link RUNNER}'s `auth/*` back-compatibility scenarios run at, besides {@link REVISIONS}. */
export const AUTH_BACKCOMPAT_REVISION = "2025-03-26";

/**
 * The revision an extension scenario runs at: the runner skips one at any
 * `--spec-version` unless given `--force`; the Skills extension (SEP-2640)
 * is defined on 2026-07-28, the era mcpx asks an HTTP server in first
 * (decision 0072).
 */
export const EXTENSION_REVISION = "2026-07-28";

const ROOT = new URL("..", import.meta.url).pathname;
const DOC = join(ROOT, "docs", "conformance.md");

/** One scenario as `list --client` names it, with the revisions it belongs to. */
export interface Scenario {
  name: string;
  tags: string[];
}

/**
 * One run of a scenario: the row's revision, and the runner's flags that
 * select it (`--spec-version <rev>`, `--force` for an extension scenario;
 * none for {@link RUNNER_0_1}, which runs one scenario the same whatever
 * `--spec-version` says).
 */
export interface Run {
  scenario: string;
  /** The revision the row names; for 0.1.16, the revisions the runner tags the scenario with. */
  revision: string;
  flags: string[];
}

/** One scenario run at one revision (conformance/doc_sections.ts). */
export type ScenarioResult = ScenarioRow;

/**
 * Parses `conformance list --client`: lines `  - name [tag,tag]`.
 *
 * @example
 * ```ts
 * import { parseScenarioList } from "./client_leg.ts";
 * const s = parseScenarioList("Client scenarios:\n  - tools_call [2025-11-25,2026-07-28]\n");
 * if (s[0].name !== "tools_call" || s[0].tags[1] !== "2026-07-28") throw new Error();
 * ```
 */
export function parseScenarioList(text: string): Scenario[] {
  const out: Scenario[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*-\s+(\S+)\s+\[([^\]]*)\]/.exec(line);
    if (m) out.push({ name: m[1], tags: m[2].split(",").map((t) => t.trim()) });
  }
  return out;
}

/** The elicitation scenario a client under default settings is measured by; the others need a person. */
const ELICITATION_KEPT = "elicitation-sep1034-client-defaults";

/** Whether `s` is a plain client scenario: not auth, and of elicitation only the client-defaults one. */
const plain = (s: Scenario) =>
  !s.name.startsWith("auth/") && (!s.name.includes("elicitation") || s.name === ELICITATION_KEPT);

/** `scenario` at `revision`, selected with `--spec-version`. */
const at = (scenario: string, revision: string): Run => ({
  scenario,
  revision,
  flags: ["--spec-version", revision],
});

/**
 * {@link RUNNER}'s plain runs: each scenario at each of {@link REVISIONS} it
 * belongs to, without auth and of elicitation the client-defaults one; then
 * each extension scenario that is not auth at {@link EXTENSION_REVISION},
 * with `--force`.
 */
export function runsOf(scenarios: Scenario[]): Run[] {
  const tagged = scenarios.filter(plain).flatMap((s) =>
    REVISIONS.filter((r) => s.tags.includes(r)).map((revision) => at(s.name, revision))
  );
  const extensions = scenarios
    .filter((s) => plain(s) && s.tags.includes("extension"))
    .map((s) => {
      const run = at(s.name, EXTENSION_REVISION);
      return { ...run, flags: [...run.flags, "--force"] };
    });
  return [...tagged, ...extensions];
}

/**
 * {@link RUNNER}'s auth runs (issue 13, "OAuth 2.1"): every `auth/*` scenario
 * at each of {@link REVISIONS} and {@link AUTH_BACKCOMPAT_REVISION} it
 * belongs to; extension scenarios (DPoP, client credentials, workload
 * identity, enterprise-managed) are not run and are listed in
 * conformance/client_doc.ts `AUTH_NOT_SUPPORTED` instead.
 */
export function authRunsOf(scenarios: Scenario[]): Run[] {
  const revisions: string[] = [AUTH_BACKCOMPAT_REVISION, ...REVISIONS];
  return scenarios
    .filter((s) => s.name.startsWith("auth/"))
    .flatMap((s) => revisions.filter((r) => s.tags.includes(r)).map((r) => at(s.name, r)));
}

/**
 * {@link RUNNER_0_1}'s runs, plain and auth: each scenario once (0.1.16 runs
 * one scenario the same whatever `--spec-version` says), its row naming the
 * revisions the runner tags it with; extension scenarios are not run.
 */
export function runsOf01(scenarios: Scenario[]): { plain: Run[]; auth: Run[] } {
  const runs = (list: Scenario[]) =>
    list
      .filter((s) => !s.tags.includes("extension"))
      .map((s) => ({ scenario: s.name, revision: s.tags.join(", "), flags: [] }));
  return {
    plain: runs(scenarios.filter(plain)),
    auth: runs(scenarios.filter((s) => s.name.startsWith("auth/"))),
  };
}

/** The most one runner process may take (a scenario's own timeout is 30 s). */
const RUN_LIMIT_MS = 180_000;

/**
 * The runner with `args`, under Deno from npm, stopped after `limitMs`: whether it succeeded and
 * what it printed (stdout, then stderr). Both legs run it through this.
 *
 * @param specifier Which runner: {@link RUNNER} (locked in deno.lock) or {@link RUNNER_0_1}
 *   (run with `--no-lock`).
 */
export async function runner(
  args: string[],
  env: Record<string, string>,
  limitMs = RUN_LIMIT_MS,
  specifier: string = RUNNER,
): Promise<{ ok: boolean; text: string }> {
  const limit = AbortSignal.timeout(limitMs);
  const lock = specifier === RUNNER ? [] : ["--no-lock"];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--node-modules-dir=none", ...lock, specifier, ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: limit,
  }).output();
  const text = new TextDecoder();
  const said = text.decode(out.stdout) + text.decode(out.stderr);
  return {
    ok: out.success,
    text: limit.aborted ? `the runner did not finish within ${limitMs / 1000} s; ${said}` : said,
  };
}

/** One run of a scenario under `specifier`, with conformance/client.ts as the client. */
async function runScenario(
  run: Run,
  specifier: string,
  env: Record<string, string>,
  tmp: string,
): Promise<ScenarioResult> {
  const client = `${Deno.execPath()} run -A ${join(ROOT, "conformance", "client.ts")}`;
  const version = specifier.slice(specifier.lastIndexOf("@") + 1);
  const dir = join(
    tmp,
    "results",
    version,
    `${run.scenario.replaceAll("/", "_")}@${run.revision.replaceAll(", ", "+")}`,
  );
  const r = await runner(
    ["client", "--command", client, "--scenario", run.scenario, ...run.flags, "-o", dir],
    env,
    RUN_LIMIT_MS,
    specifier,
  );
  const result = resultOf(run, await readChecks(dir), r.ok, r.text);
  console.log(
    `${result.passed ? "pass" : "FAIL"} ${version} ${run.scenario} @${run.revision} ` +
      `${result.checksPassed}/${result.checksTotal}`,
  );
  return result;
}

/** Every run of `runs` under `specifier`, one after another. */
async function runAll(
  runs: Run[],
  specifier: string,
  env: Record<string, string>,
  tmp: string,
): Promise<ScenarioResult[]> {
  const out: ScenarioResult[] = [];
  for (const run of runs) out.push(await runScenario(run, specifier, env, tmp));
  return out;
}

/** The client scenarios `specifier` lists. */
async function scenariosOf(specifier: string, env: Record<string, string>): Promise<Scenario[]> {
  const list = await runner(["list", "--client"], env, RUN_LIMIT_MS, specifier);
  const scenarios = parseScenarioList(list.text);
  if (scenarios.length === 0) {
    throw new Error(`${specifier} listed no client scenarios:\n${list.text}`);
  }
  return scenarios;
}

/** What the reader is told each runner runs, and how. */
const ABOUT: Record<string, string> = {
  [RUNNER]: "each scenario at each of the revisions 2025-11-25 and 2026-07-28 it belongs to " +
    "(`--spec-version <rev>`; the auth back-compatibility ones at 2025-03-26), and the " +
    "extension scenarios that are not auth (the Skills extension, SEP-2640) at 2026-07-28 " +
    "(`--spec-version 2026-07-28 --force`: the runner skips an extension scenario at any " +
    "revision without it).",
  [RUNNER_0_1]: "every client scenario it knows but its extensions, each once (`--scenario` " +
    "alone: this version runs one scenario the same whatever `--spec-version` says); the " +
    "revision column gives the revisions the runner tags it with. It has no 2026-07-28 " +
    "scenarios and no Skills ones.",
};

async function main(): Promise<number> {
  const tmp = await Deno.makeTempDir({ prefix: "mcpx-conformance-" });
  // The scenarios' daemons and caches live here, apart from the user's own.
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    XDG_STATE_HOME: join(tmp, "state"),
    XDG_CACHE_HOME: join(tmp, "cache"),
    XDG_CONFIG_HOME: join(tmp, "config"),
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache", "deno"),
  };
  delete env.MCPX_CONFIG;
  try {
    // `--auth-only`: the auth leg alone, its section of the document replaced.
    const authOnly = Deno.args.includes("--auth-only");
    const results: RunnerResults[] = [];
    for (const specifier of [RUNNER, RUNNER_0_1]) {
      const scenarios = await scenariosOf(specifier, env);
      const runs = specifier === RUNNER
        ? { plain: runsOf(scenarios), auth: authRunsOf(scenarios) }
        : runsOf01(scenarios);
      results.push({
        runner: specifier,
        about: ABOUT[specifier],
        plain: authOnly ? [] : await runAll(runs.plain, specifier, env, tmp),
        auth: await runAll(runs.auth, specifier, env, tmp),
      });
    }
    const all = results.flatMap((r) => [...r.plain, ...r.auth]);
    if (all.every((r) => r.checksTotal === 0)) {
      console.error("error: no scenario gave any checks; the runner or the client is broken");
      return 1;
    }
    const previous = await Deno.readTextFile(DOC).catch(() => "");
    const main = authOnly
      ? previous.split(AUTH_HEADING)[0].trimEnd() + "\n"
      : renderDocument(results);
    // The server leg's section (conformance/server_leg.ts) is kept as it was.
    await Deno.writeTextFile(
      DOC,
      keepServerSection(`${main}\n${renderAuthSection(results)}`, previous),
    );
    // Laid out as `deno task check` wants it, so a regenerated document is always clean.
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", DOC], cwd: ROOT }).output();
    console.log(`wrote ${DOC}: ${all.filter((r) => r.passed).length}/${all.length} pass`);
    return 0;
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 1;
  } finally {
    // Every daemon a scenario started, then the directory they lived in.
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "cli", "mcpx.bundle.js"), "stop", "--all"],
      env,
      stdout: "null",
      stderr: "null",
    }).output().catch(() => {});
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await main());

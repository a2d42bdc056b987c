/**
 * The official conformance suite's client leg, with mcpx as the client:
 * every client scenario of spec revisions 2025-11-25 and 2026-07-28 the
 * runner offers but the extensions, each run with conformance/client.ts as
 * the client command, the auth ones in a section of their own; the results
 * are written to docs/conformance.md.
 *
 * `deno task conformance` (also a step of .ci/run, outside the test suite).
 * Scenarios that fail do not fail the script: the document records them.
 * It exits non-zero only when it could not measure (the runner would not
 * start, or gave no results). The server leg (conformance/server_leg.ts)
 * writes its own section of the same document, which this script keeps.
 *
 * The runner (`@modelcontextprotocol/conformance`, pinned below) needs Node
 * 22 or newer; it runs under Deno instead (`npm:` specifier, no
 * node_modules), which measured the same and needs no second runtime.
 * Every daemon the scenarios start lives in a temporary state directory,
 * stopped and removed at the end.
 *
 * @module
 */

import { join } from "node:path";
import { keepServerSection, type ScenarioRow, scenarioTable } from "./doc_sections.ts";

/** The runner, pinned: 0.2.0-alpha.12 is the first to carry the 2026-07-28 scenarios. */
export const RUNNER = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";

/** The spec revisions measured. */
export const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

const ROOT = new URL("..", import.meta.url).pathname;
const DOC = join(ROOT, "docs", "conformance.md");

/**
 * Why a scenario fails, where the checks alone do not say it: what mcpx lacks
 * and which issue brings it. Said first in the scenario's row while it fails.
 */
export const KNOWN_CAUSES: Record<string, string[]> = {};

/** One scenario as `list --client` names it, with the revisions it belongs to. */
export interface Scenario {
  name: string;
  tags: string[];
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

/**
 * The runs of this leg: each scenario at each of {@link REVISIONS} it
 * belongs to, without auth and extension scenarios; of elicitation, the client-defaults one.
 */
export function runsOf(scenarios: Scenario[]): { scenario: string; revision: string }[] {
  return scenarios
    .filter((s) =>
      !s.name.startsWith("auth/") &&
      (!s.name.includes("elicitation") || s.name === "elicitation-sep1034-client-defaults")
    )
    .flatMap((s) =>
      REVISIONS.filter((r) => s.tags.includes(r)).map((revision) => ({
        scenario: s.name,
        revision,
      }))
    );
}

/**
 * The auth leg's runs (issue 13, "OAuth 2.1"): every `auth/*` scenario at
 * each of {@link REVISIONS} it belongs to; extension scenarios (DPoP,
 * client credentials, workload identity, enterprise-managed) are not run
 * and are listed in {@link AUTH_NOT_SUPPORTED} instead.
 */
export function authRunsOf(scenarios: Scenario[]): { scenario: string; revision: string }[] {
  return scenarios
    .filter((s) => s.name.startsWith("auth/"))
    .flatMap((s) =>
      REVISIONS.filter((r) => s.tags.includes(r)).map((revision) => ({
        scenario: s.name,
        revision,
      }))
    );
}

/**
 * The `auth/*` extension scenarios mcpx does not run, and why: each needs a
 * grant or proof with no person in it, which `mcpx auth` (a person
 * authorizing in a browser) does not offer yet.
 */
export const AUTH_NOT_SUPPORTED: Record<string, string> = {
  "auth/client-credentials-jwt":
    "client credentials with a private-key JWT: no configuration carries a signing key yet",
  "auth/client-credentials-basic":
    "client credentials (no user): mcpx authorizes as a person with the authorization-code flow",
  "auth/enterprise-managed-authorization":
    "an identity provider's ID token exchanged for a grant (SEP-990): not configurable yet",
  "auth/dpop": "DPoP-bound tokens: the SDK has a DpopSession, mcpx's store keeps no DPoP key yet",
  "auth/dpop-nonce":
    "DPoP-bound tokens: the SDK has a DpopSession, mcpx's store keeps no DPoP key yet",
  "auth/wif-jwt-bearer":
    "workload identity federation (a JWT bearer grant): no workload token source yet",
};

/** A check as the runner writes it in `checks.json`. */
interface Check {
  name?: string;
  id?: string;
  status?: string;
  description?: string;
  errorMessage?: string;
}

/**
 * One result from a run's checks: INFO and SKIPPED checks are not counted;
 * a scenario passes when no check failed and the runner said so.
 */
export function resultOf(
  run: { scenario: string; revision: string },
  checks: Check[] | undefined,
  runnerOk: boolean,
  runnerSaid: string,
): ScenarioResult {
  if (!checks) {
    return {
      ...run,
      passed: false,
      checksPassed: 0,
      checksTotal: 0,
      failures: [
        `the runner gave no checks: ${runnerSaid.trim().split("\n").slice(-3).join(" / ")}`,
      ],
    };
  }
  const counted = checks.filter((c) => c.status !== "INFO" && c.status !== "SKIPPED");
  const failed = counted.filter((c) => c.status === "FAILURE");
  return {
    ...run,
    passed: runnerOk && failed.length === 0,
    checksPassed: counted.filter((c) => c.status === "SUCCESS").length,
    checksTotal: counted.length,
    // One line per distinct reason: a scenario may fail the same way once per header or call.
    failures: [
      ...new Set(
        failed.map((c) => `${c.name ?? c.id}: ${c.errorMessage ?? c.description ?? "failed"}`),
      ),
    ],
  };
}

/** docs/conformance.md from the results. */
export function renderDocument(results: ScenarioResult[], runner: string): string {
  const passed = results.filter((r) => r.passed).length;
  const checks = results.reduce((n, r) => n + r.checksPassed, 0);
  const total = results.reduce((n, r) => n + r.checksTotal, 0);
  const lines = [
    "# Conformance",
    "",
    "Generated by `deno task conformance` (conformance/client_leg.ts); do not edit by hand.",
    "",
    "## Client leg",
    "",
    `mcpx as the client of the official suite (\`${runner}\`): every client scenario of spec`,
    "revisions 2025-11-25 and 2026-07-28 but the auth ones (their own section below) and the",
    "extensions. conformance/client.ts does with each scenario server's URL what a user does,",
    "under default settings (no setting is given, whatever the revision): `mcpx ls <url>`,",
    "`mcpx --json types <url>`, then `mcpx call <url> <tool> …` for every tool listed, with the",
    "arguments its schema implies (or the ones the runner names), answering a question with its",
    "defaults.",
    "",
    `${passed} of ${results.length} runs pass; ${checks} of ${total} checks.`,
    "",
    ...scenarioTable(results, (scenario) => KNOWN_CAUSES[scenario] ?? []),
    "",
  ];
  return lines.join("\n");
}

/** Why an `auth/*` scenario fails, where its checks alone do not say it. */
export const AUTH_KNOWN_CAUSES: Record<string, string> = {
  "auth/basic-cimd": "CIMD: a client id that is a URL needs a client ID metadata document the " +
    "user hosts at that URL (the setting `oauth.clientMetadataUrl`, `mcpx help login`); with " +
    "none set, as here, mcpx registers dynamically, which the check for CIMD counts as a fail",
};

/** The auth leg's heading in docs/conformance.md. */
const AUTH_HEADING = "## Client leg: authorization (auth/*)";

/** The auth leg's section of docs/conformance.md, from its results. */
export function renderAuthSection(results: ScenarioResult[]): string {
  // The heading {@link AUTH_HEADING} finds again.
  const passed = results.filter((r) => r.passed).length;
  return [
    AUTH_HEADING,
    "",
    "Every `auth/*` client scenario of 2025-11-25 and 2026-07-28, with conformance/client.ts as the",
    "person and the browser: `mcpx auth <url> --no-browser --json` (with the scenario's",
    "pre-registered client, when it gives one, as `--client-id`/`--client-secret`), the authorization",
    "URL fetched without following its redirect, `mcpx auth <url> --code … --state … [--iss …]`,",
    "when a command fails naming `mcpx auth`; then the same commands as the leg above. No",
    "`oauth.clientMetadataUrl` is given: a user must host that document themselves.",
    "",
    `${passed} of ${results.length} runs pass.`,
    "",
    ...scenarioTable(results, (scenario) => [AUTH_KNOWN_CAUSES[scenario] ?? ""]),
    "",
    "Not run (extensions, no flow for them in mcpx yet):",
    "",
    ...Object.entries(AUTH_NOT_SUPPORTED).map(([name, why]) => `- ${name}: ${why}`),
    "",
  ].join("\n");
}

/** The most one runner process may take (a scenario's own timeout is 30 s). */
const RUN_LIMIT_MS = 180_000;

/** What the 2026-07-28 rows say, from the rows themselves. */
/**
 * The runner with `args`, under Deno from npm, stopped after `limitMs`: whether it succeeded and
 * what it printed (stdout, then stderr). Both legs run it through this; `spec` is the runner's
 * npm specifier ({@link RUNNER} unless the server leg names another version).
 */
export async function runner(
  args: string[],
  env: Record<string, string>,
  limitMs = RUN_LIMIT_MS,
  spec = RUNNER,
): Promise<{ ok: boolean; text: string }> {
  const limit = AbortSignal.timeout(limitMs);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--node-modules-dir=none", spec, ...args],
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

/**
 * The checks.json the runner wrote under `dir` (one run per directory), or
 * undefined; an `auth/*` scenario's lies one folder deeper (`auth/<name>-<time>/`).
 */
async function readChecks(dir: string, depth = 2): Promise<Check[] | undefined> {
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isDirectory) continue;
      const text = await Deno.readTextFile(join(dir, entry.name, "checks.json")).catch(() => "");
      if (text) return JSON.parse(text);
      const deeper = depth > 1 ? await readChecks(join(dir, entry.name), depth - 1) : undefined;
      if (deeper) return deeper;
    }
  } catch { /* no results */ }
  return undefined;
}

/** One scenario at one revision, run with conformance/client.ts as the client. */
async function runScenario(
  run: { scenario: string; revision: string },
  env: Record<string, string>,
  tmp: string,
): Promise<ScenarioResult> {
  const client = `${Deno.execPath()} run -A ${join(ROOT, "conformance", "client.ts")}`;
  const dir = join(tmp, "results", `${run.scenario.replaceAll("/", "_")}@${run.revision}`);
  const r = await runner([
    "client",
    "--command",
    client,
    "--scenario",
    run.scenario,
    "--spec-version",
    run.revision,
    "-o",
    dir,
  ], env);
  const result = resultOf(run, await readChecks(dir), r.ok, r.text);
  console.log(
    `${result.passed ? "pass" : "FAIL"} ${run.scenario} @${run.revision} ` +
      `${result.checksPassed}/${result.checksTotal}`,
  );
  return result;
}

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
    const list = await runner(["list", "--client"], env);
    const scenarios = parseScenarioList(list.text);
    // `--auth-only`: the auth leg alone, its section of the document replaced.
    const authOnly = Deno.args.includes("--auth-only");
    const runs = authOnly ? [] : runsOf(scenarios);
    const authRuns = authRunsOf(scenarios);
    if (runs.length + authRuns.length === 0) {
      console.error(`error: the runner listed no client scenarios:\n${list.text}`);
      return 1;
    }
    const results: ScenarioResult[] = [];
    for (const run of runs) results.push(await runScenario(run, env, tmp));
    const authResults: ScenarioResult[] = [];
    for (const run of authRuns) authResults.push(await runScenario(run, env, tmp));
    if ([...results, ...authResults].every((r) => r.checksTotal === 0)) {
      console.error("error: no scenario gave any checks; the runner or the client is broken");
      return 1;
    }
    const kept = authOnly
      ? (await Deno.readTextFile(DOC).catch(() => "")).split(AUTH_HEADING)[0]
      : "";
    const main = authOnly ? kept.trimEnd() + "\n" : renderDocument(results, RUNNER);
    // The server leg's section (conformance/server_leg.ts) is kept as it was.
    await Deno.writeTextFile(
      DOC,
      keepServerSection(
        `${main}\n${renderAuthSection(authResults)}`,
        await Deno.readTextFile(DOC).catch(() => ""),
      ),
    );
    // Laid out as `deno task check` wants it, so a regenerated document is always clean.
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", DOC], cwd: ROOT }).output();
    const all = [...results, ...authResults];
    console.log(`wrote ${DOC}: ${all.filter((r) => r.passed).length}/${all.length} pass`);
    return 0;
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

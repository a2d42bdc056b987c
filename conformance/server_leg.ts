/**
 * The official conformance suite's server leg: every server scenario the
 * runner's `--suite all` gives at each `--spec-version` (which leaves out
 * the extensions), with two versions of the runner ({@link SERVER_RUNNERS}:
 * 0.2.x at revisions 2025-11-25 and 2026-07-28, 0.1.x at 2025-11-25, the
 * newest it knows), run against our conformance fixture
 * (tests/fixtures/servers/conformance_fixture.ts) twice: directly, over its
 * own Streamable HTTP, and through mcpx, with another instance of the
 * fixture as the upstream served by `servePassthrough()`
 * (cli/serve/serve_passthrough.ts; `mcpx serve --passthrough`). The results
 * are written as the "Server leg" section of docs/conformance.md, a table
 * per runner, after the client leg's sections (conformance/client_leg.ts
 * keeps this one).
 *
 * `deno task conformance:server` (its own step of .ci/run). Failing scenarios
 * do not fail the script; it exits non-zero only when it could not measure.
 *
 * @module
 */

import { join } from "node:path";
import { REVISIONS, RUNNER, runner, RUNNER_0_1 } from "./client_leg.ts";
import { cell, type ScenarioRow, SERVER_HEADING, withServerSection } from "./doc_sections.ts";

export { keepServerSection, SERVER_HEADING, withServerSection } from "./doc_sections.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DOC = join(ROOT, "docs", "conformance.md");

/** `mcpx serve --passthrough`, as a user runs it (the bundle), less the namespace and its HTTP flags. */
const PASSTHROUGH = [
  Deno.execPath(),
  "run",
  "-A",
  join(ROOT, "cli", "mcpx.bundle.js"),
  "serve",
  "--passthrough",
];

/**
 * Why a scenario fails through mcpx while it passes directly: what mcpx
 * does not pass on, and why (decision 0045). Said first in its row.
 */
export const THROUGH_MCPX_CAUSES: Record<string, string> = {};

/** One scenario at one revision against one target (conformance/doc_sections.ts). */
export type ServerRun = ScenarioRow;

/** A version of the suite's runner the leg measures with, and the revisions it is run at. */
export interface ServerRunner {
  /** Its npm specifier, as `deno run` takes it. */
  spec: string;
  /** The revisions given as `--spec-version`, each a run of its own. */
  revisions: readonly string[];
  /** What its table says first: what this version does not measure, and why. */
  note?: string;
}

/**
 * The runners of this leg: the client leg's (0.2.x, the first to carry the
 * 2026-07-28 scenarios) and 0.1.16, npm's `latest`, which is what a user who
 * installs the suite without a version runs. Its `--spec-version` takes
 * 2025-03-26, 2025-06-18 and 2025-11-25, cumulatively: at 2025-11-25 it runs
 * the 2025-06-18 scenarios too.
 */
export const SERVER_RUNNERS: readonly ServerRunner[] = [
  { spec: RUNNER, revisions: REVISIONS },
  {
    spec: RUNNER_0_1,
    revisions: ["2025-11-25"],
    note: "0.1.x has no 2026-07-28 scenarios (its `--spec-version` names none): it is run at " +
      "2025-11-25, which takes in its 2025-06-18 scenarios.",
  },
];

/** The version an npm specifier names (`npm:@scope/name@1.2.3` → `1.2.3`). */
export function versionOf(spec: string): string {
  return spec.slice(spec.lastIndexOf("@") + 1);
}

/** What one runner measured: each run directly and through mcpx. */
export interface RunnerResults {
  runner: ServerRunner;
  direct: ServerRun[];
  through: ServerRun[];
}

/** A check as the runner writes it in `checks.json`. */
interface Check {
  id?: string;
  name?: string;
  status?: string;
  errorMessage?: string;
}

/**
 * The runs under `dir` (one `server-<scenario>-<time>/checks.json` per
 * scenario): INFO and SKIPPED checks are not counted; a WARNING is counted
 * as passed, as the runner does.
 */
export async function readRuns(dir: string, revision: string): Promise<ServerRun[]> {
  const out: ServerRun[] = [];
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
  } catch { /* no results */ }
  for (const entry of entries) {
    const m = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry.name);
    if (!entry.isDirectory || !m) continue;
    const text = await Deno.readTextFile(join(dir, entry.name, "checks.json")).catch(() => "");
    if (!text) continue;
    const checks = JSON.parse(text) as Check[];
    const counted = checks.filter((c) => c.status !== "INFO" && c.status !== "SKIPPED");
    const failed = counted.filter((c) => c.status === "FAILURE");
    out.push({
      scenario: m[1],
      revision,
      passed: failed.length === 0,
      checksPassed: counted.length - failed.length,
      checksTotal: counted.length,
      failures: [...new Set(failed.map((c) => `${c.id ?? c.name}: ${c.errorMessage ?? "failed"}`))],
    });
  }
  return out.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** The "Server leg" section of docs/conformance.md: what was measured, then a table per runner. */
export function renderServerSection(measured: RunnerResults[]): string {
  return [
    SERVER_HEADING,
    "",
    "The suite's server scenarios (`server --suite all --spec-version <rev>`), with two versions of",
    "its runner, against our conformance fixture (tests/fixtures/servers/conformance_fixture.ts,",
    "built with the SDK), directly over its own Streamable HTTP, and through mcpx: another instance",
    "of the fixture, configured by its URL alone (no protocol setting), served by",
    "`mcpx serve --passthrough` over Streamable HTTP (cli/serve/serve_passthrough.ts). mcpx's default",
    "asks an HTTP server in the 2026-07-28 era first (decision 0072), so the fixture's",
    "`input_required` results are relayed as written (decision 0049). A stdio upstream is asked in",
    "the 2025 era first: its questions then reach a 2026-07-28 client as mcpx's own",
    "`input_required`, keyed by mcpx, and the five input-required scenarios that check the",
    "fixture's own keys fail that way (35/40).",
    "",
    ...measured.flatMap(runnerSection),
  ].join("\n");
}

/** One runner's subsection: counts per revision, then a row per scenario with its reason. */
function runnerSection({ runner, direct, through }: RunnerResults): string[] {
  const key = (r: ServerRun) => `${r.scenario}@${r.revision}`;
  const viaMcpx = new Map(through.map((r) => [key(r), r]));
  const count = (runs: ServerRun[], revision: string) => {
    const of = runs.filter((r) => r.revision === revision);
    return `${of.filter((r) => r.passed).length}/${of.length}`;
  };
  const result = (r: ServerRun | undefined) =>
    r ? `${r.passed ? "pass" : "fail"} ${r.checksPassed}/${r.checksTotal}` : "not run";
  return [
    `### Runner ${versionOf(runner.spec)}`,
    "",
    `\`${runner.spec}\`.${runner.note ? ` ${runner.note}` : ""}`,
    "",
    "| revision | direct | through mcpx |",
    "| --- | --- | --- |",
    ...runner.revisions.map((rev) => `| ${rev} | ${count(direct, rev)} | ${count(through, rev)} |`),
    "",
    "| scenario | revision | direct | through mcpx | why it fails |",
    "| --- | --- | --- | --- | --- |",
    ...direct.map((d) => {
      const t = viaMcpx.get(key(d));
      const why = [
        ...(!d.passed ? d.failures.map((f) => `direct: ${f}`) : []),
        ...(t && !t.passed ? [THROUGH_MCPX_CAUSES[d.scenario] ?? "", ...t.failures] : []),
      ].filter(Boolean).join("; ");
      return `| ${d.scenario} | ${d.revision} | ${result(d)} | ${result(t)} | ${cell(why)} |`;
    }),
    "",
  ];
}

/** A process whose first line matching `pattern` (on stdout or stderr) is its URL. */
async function startServing(
  argv: string[],
  env: Record<string, string>,
  pattern: RegExp,
  cwd: string,
): Promise<{ url: string; child: Deno.ChildProcess }> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const found = Promise.withResolvers<string>();
  const said: string[] = [];
  const watch = async (stream: ReadableStream<Uint8Array>) => {
    for await (const line of stream.pipeThrough(new TextDecoderStream()).pipeThrough(lines())) {
      said.push(line);
      const m = pattern.exec(line);
      if (m) found.resolve(m[1]);
    }
  };
  void watch(child.stdout);
  void watch(child.stderr);
  const limit = setTimeout(
    () => found.reject(new Error(`${argv.join(" ")} gave no URL in 60 s: ${said.join(" / ")}`)),
    60_000,
  );
  void child.status.then((s) =>
    found.reject(new Error(`${argv.join(" ")} exited ${s.code}: ${said.join(" / ")}`))
  );
  try {
    return { url: await found.promise, child };
  } finally {
    clearTimeout(limit);
  }
}

function lines(): TransformStream<string, string> {
  let rest = "";
  return new TransformStream({
    transform(chunk, out) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      for (const p of parts) out.enqueue(p);
    },
    flush(out) {
      if (rest) out.enqueue(rest);
    },
  });
}

/** One revision's server scenarios against `url` with runner `spec`, results in `dir`. */
async function runSuite(
  spec: string,
  url: string,
  revision: string,
  dir: string,
  env: Record<string, string>,
) {
  const out = await runner(
    ["server", "--url", url, "--suite", "all", "--spec-version", revision, "-o", dir],
    env,
    900_000,
    spec,
  );
  const runs = await readRuns(dir, revision);
  console.log(
    `${versionOf(spec)} ${url} @${revision}: ` +
      `${runs.filter((r) => r.passed).length}/${runs.length} scenarios pass`,
  );
  if (runs.length === 0) console.error(out.text.slice(-2000));
  return runs;
}

/** Measures both targets with each runner at its revisions and writes the section; the exit code. */
export async function main(): Promise<number> {
  const started = performance.now();
  const tmp = await Deno.makeTempDir({ prefix: "mcpx-conformance-server-" });
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    HOME: tmp,
    XDG_STATE_HOME: join(tmp, "state"),
    XDG_CACHE_HOME: join(tmp, "cache"),
    XDG_CONFIG_HOME: join(tmp, "config"),
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache", "deno"),
    // The leg's own configuration file, written below, is trusted as a user's own would be.
    MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always",
  };
  delete env.MCPX_CONFIG;
  delete env.MCPX_SESSION_ID;
  const fixture = [
    Deno.execPath(),
    "run",
    "-A",
    "--config",
    join(ROOT, "deno.json"),
    join(ROOT, "tests", "fixtures", "servers", "conformance_fixture.ts"),
  ];
  const children: Deno.ChildProcess[] = [];
  try {
    const direct = await startServing([...fixture, "--http", "0"], env, /^listening (\S+)/, tmp);
    children.push(direct.child);
    // The upstream mcpx serves: another instance of the fixture over Streamable HTTP, configured
    // as a user configures a remote server, by its URL alone. No protocol setting: mcpx's default
    // asks an HTTP server in the 2026-07-28 era first (decision 0072), so the fixture's
    // input_required results reach the passthrough's client as it wrote them (decision 0049).
    const upstream = await startServing([...fixture, "--http", "0"], env, /^listening (\S+)/, tmp);
    children.push(upstream.child);
    await Deno.writeTextFile(
      join(tmp, ".mcp.json"),
      JSON.stringify({ mcpServers: { fixture: { url: upstream.url } } }),
    );
    const through = await startServing(
      [...PASSTHROUGH, "fixture", "--http", "--port", "0"],
      env,
      /serving \S+ at (\S+)/,
      tmp,
    );
    children.push(through.child);
    const measured: RunnerResults[] = [];
    for (const used of SERVER_RUNNERS) {
      const results: RunnerResults = { runner: used, direct: [], through: [] };
      const version = versionOf(used.spec);
      for (const revision of used.revisions) {
        const at = (side: string) => join(tmp, `${side}-${version}-${revision}`);
        results.direct.push(...await runSuite(used.spec, direct.url, revision, at("d"), env));
        results.through.push(...await runSuite(used.spec, through.url, revision, at("t"), env));
      }
      if (results.direct.length === 0) {
        console.error(`error: runner ${version} gave no results against the fixture`);
        return 1;
      }
      measured.push(results);
    }
    const doc = await Deno.readTextFile(DOC).catch(() => "# Conformance\n");
    await Deno.writeTextFile(DOC, withServerSection(doc, renderServerSection(measured)));
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", DOC], cwd: ROOT }).output();
    console.log(`wrote ${DOC} in ${Math.round((performance.now() - started) / 1000)} s`);
    return 0;
  } finally {
    for (const child of children) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    }
    // The daemon the passthrough started, then the directory it lived in.
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "cli", "mcpx.bundle.js"), "stop", "--all"],
      env,
      cwd: tmp,
      stdout: "null",
      stderr: "null",
    }).output();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) Deno.exit(await main());

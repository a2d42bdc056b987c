/**
 * The client leg's sections of docs/conformance.md (conformance/client_leg.ts
 * runs the scenarios): for each runner version, the plain and extension
 * scenarios in one table and the `auth/*` ones in another, every failure with
 * its reason, the settings used, and what was not run and why. The server
 * leg's section (conformance/server_leg.ts) is kept by the caller.
 *
 * @module
 */

import { type ScenarioRow, scenarioTable } from "./doc_sections.ts";

/** The auth leg's heading in docs/conformance.md: `--auth-only` replaces what follows it. */
export const AUTH_HEADING = "## Client leg: authorization (auth/*)";

/** The version part of a runner's specifier (`0.1.16`). */
const versionOf = (runner: string) => runner.slice(runner.lastIndexOf("@") + 1);

/** What one runner version gave: its specifier, and its plain and `auth/*` runs. */
export interface RunnerResults {
  /** The pinned npm specifier (`npm:@modelcontextprotocol/conformance@0.1.16`). */
  runner: string;
  /** What the version runs, and how, in one sentence for the reader. */
  about: string;
  plain: ScenarioRow[];
  auth: ScenarioRow[];
}

/**
 * Why a scenario fails, where the checks alone do not say it: what mcpx
 * lacks, what the suite counts that mcpx does not do by design, or the
 * runner's own fault. Said first in the scenario's row while it fails. The
 * key is `<scenario>` for every runner, or `<version> <scenario>` for one
 * (`0.1.16 auth/…`).
 */
export const KNOWN_CAUSES: Record<string, string> = {
  "sep-2640-client-no-prefetch": "the shim loads every skill it lists (`mcpx skills <url> <uri> " +
    "--verify`, which the three verify scenarios need), and this scenario counts any read as a " +
    "prefetch: the one read counted is that verification's SKILL.md, listing read nothing " +
    "(decision 0074). The four skills servers declare the same capabilities and list the same " +
    "entry: only a client that knows the scenario's name can pass all four, and the shim does " +
    "not look (decision 0033)",
  "auth/basic-cimd": "CIMD: a client id that is a URL needs a client ID metadata document the " +
    "user hosts at that URL (the setting `oauth.clientMetadataUrl`, `mcpx help login`); with " +
    "none set, as here, mcpx registers dynamically, which the check for CIMD counts as a fail",
  "0.1.16 auth/2025-03-26-oauth-metadata-backcompat": "the runner's fault: its server publishes " +
    "authorization server metadata at the root's `/.well-known/oauth-authorization-server` " +
    'naming issuer `<root>/oauth`, and RFC 8414 §3.3 says a client "MUST NOT" use metadata ' +
    "whose issuer is not the one the URL was built from, so mcpx stops before registering (the " +
    "2026-07-28 scenario auth/metadata-issuer-mismatch checks that it does); 0.2.0-alpha.12 " +
    "serves the root as the issuer, and there the same scenario passes",
};

/** The known cause of `scenario`'s failure under `runner` (its version from the specifier). */
export function causesOf(runner: string, scenario: string): string[] {
  return [KNOWN_CAUSES[`${versionOf(runner)} ${scenario}`] ?? KNOWN_CAUSES[scenario] ?? ""];
}

/**
 * The `auth/*` extension scenarios mcpx does not run, and why: each needs a
 * grant or proof with no person in it, which `mcpx auth` (a person
 * authorizing in a browser) does not offer yet. Names from either runner.
 */
export const AUTH_NOT_SUPPORTED: Record<string, string> = {
  "auth/client-credentials-jwt":
    "client credentials with a private-key JWT: no configuration carries a signing key yet",
  "auth/client-credentials-basic":
    "client credentials (no user): mcpx authorizes as a person with the authorization-code flow",
  "auth/enterprise-managed-authorization":
    "an identity provider's ID token exchanged for a grant (SEP-990): not configurable yet",
  "auth/cross-app-access-complete-flow": "0.1.16's name for the SEP-990 flow (token exchange, " +
    "then a JWT bearer grant): not configurable yet",
  "auth/dpop": "DPoP-bound tokens: the SDK has a DpopSession, mcpx's store keeps no DPoP key yet",
  "auth/dpop-nonce":
    "DPoP-bound tokens: the SDK has a DpopSession, mcpx's store keeps no DPoP key yet",
  "auth/wif-jwt-bearer":
    "workload identity federation (a JWT bearer grant): no workload token source yet",
};

/** `passed of total runs pass; checks of checks`. */
function tally(rows: ScenarioRow[]): string {
  const passed = rows.filter((r) => r.passed).length;
  const checks = rows.reduce((n, r) => n + r.checksPassed, 0);
  const total = rows.reduce((n, r) => n + r.checksTotal, 0);
  return `${passed} of ${rows.length} runs pass; ${checks} of ${total} checks.`;
}

/** One runner's table in a section: its heading, what it runs, the tally and the rows. */
function runnerTable(r: RunnerResults, rows: ScenarioRow[]): string[] {
  return [
    `### Runner ${versionOf(r.runner)}`,
    "",
    `\`${r.runner}\`: ${r.about}`,
    "",
    tally(rows),
    "",
    ...scenarioTable(rows, (scenario) => causesOf(r.runner, scenario)),
    "",
  ];
}

/**
 * The client leg's plain section (everything before {@link AUTH_HEADING}):
 * the title, how the shim works, the settings used, and each runner's table
 * of plain and extension scenarios.
 */
export function renderDocument(results: RunnerResults[]): string {
  return [
    "# Conformance",
    "",
    "Generated by `deno task conformance` (conformance/client_leg.ts); do not edit by hand.",
    "",
    "## Client leg",
    "",
    "mcpx as the client of the official suite, with two runner versions (each below): every",
    "client scenario of the revisions a version knows, the auth ones in their own section. The",
    "client is conformance/client.ts, which does with each scenario server's URL what a user does,",
    "under default settings: no setting is given, whatever the revision or the runner (no",
    "configuration file, no environment variable, no flag but the commands' own). It runs",
    "`mcpx ls <url>`, `mcpx --json types <url>`, then `mcpx call <url> <tool> …` for every tool",
    "listed, with the arguments its schema implies (or the ones the runner names), answering a",
    "question with its defaults; then `mcpx --json skills <url>` and, for every skill listed,",
    "`mcpx --json skills <url> <uri> --verify` (a skill loaded, checked against its entry).",
    "Nothing it does depends on the scenario's name.",
    "",
    ...results.flatMap((r) => runnerTable(r, r.plain)),
  ].join("\n");
}

/** The auth section, from each runner's `auth/*` runs. */
export function renderAuthSection(results: RunnerResults[]): string {
  const runners = results.map((r) => versionOf(r.runner)).join(" and ");
  return [
    AUTH_HEADING,
    "",
    `Every \`auth/*\` client scenario of the runners (${runners}), with conformance/client.ts as`,
    "the person and the browser: `mcpx auth <url> --no-browser --json` (with the scenario's",
    "pre-registered client, when it gives one, as `--client-id`/`--client-secret`), the",
    "authorization URL fetched without following its redirect,",
    "`mcpx auth <url> --code … --state … [--iss …]`, when a command fails naming `mcpx auth`; then",
    "the same commands as the leg above.",
    "No `oauth.clientMetadataUrl` is given: a user must host that document themselves.",
    "",
    ...results.flatMap((r) => runnerTable(r, r.auth)),
    "Not run (extensions, no flow for them in mcpx yet):",
    "",
    ...Object.entries(AUTH_NOT_SUPPORTED).map(([name, why]) => `- ${name}: ${why}`),
    "",
  ].join("\n");
}

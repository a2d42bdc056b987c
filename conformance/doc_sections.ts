/**
 * docs/conformance.md is written by two scripts, one leg each: the client
 * leg (conformance/client_leg.ts) writes the document and keeps the server
 * leg's section as it was; the server leg (conformance/server_leg.ts)
 * replaces only its own section. The section helpers live here, imported by
 * both, so neither script imports the other while it runs (a module cycle
 * under a top-level `await` never finishes evaluating).
 *
 * @module
 */

/** The section's heading in docs/conformance.md. */
export const SERVER_HEADING = "## Server leg";

/** `doc` with its server section replaced by `section` (added at the end when it has none). */
export function withServerSection(doc: string, section: string): string {
  const at = doc.indexOf(SERVER_HEADING);
  const before = (at < 0 ? doc : doc.slice(0, at)).trimEnd();
  return `${before ? `${before}\n\n` : ""}${section}`;
}

/**
 * `doc` (the client leg's sections, just rendered) followed by the server
 * section `previous` had, so regenerating one leg keeps the other's.
 */
export function keepServerSection(doc: string, previous: string): string {
  const at = previous.indexOf(SERVER_HEADING);
  return at < 0 ? doc : withServerSection(doc, previous.slice(at));
}

/** `text` as one Markdown table cell: its pipes escaped, its lines joined. */
export function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * One scenario run at one revision, as the runner's checks give it: the
 * client legs' results and the server leg's runs alike.
 */
export interface ScenarioRow {
  /** The scenario's name (`tools_call`, `auth/metadata-default`). */
  scenario: string;
  revision: string;
  passed: boolean;
  checksPassed: number;
  checksTotal: number;
  /** Each failed check's name and message; or why the run gave no checks. */
  failures: string[];
}

/**
 * The table of client scenario runs both client sections print: one row each,
 * a failed run's known causes (`causesOf`) said before its failed checks.
 */
export function scenarioTable(
  results: ScenarioRow[],
  causesOf: (scenario: string) => string[],
): string[] {
  return [
    "| scenario | revision | result | checks | why it failed |",
    "| --- | --- | --- | --- | --- |",
    ...results.map((r) =>
      `| ${r.scenario} | ${r.revision} | ${r.passed ? "pass" : "fail"} | ` +
      `${r.checksPassed}/${r.checksTotal} | ${
        cell([...(r.passed ? [] : causesOf(r.scenario)), ...r.failures].filter(Boolean).join("; "))
      } |`
    ),
  ];
}

/**
 * A running script's output: its stderr split into records and text
 * (runner/stderr_demux.ts), with deno's own report of a top-level await that
 * never settled held back and said in mcpx's words when that is how the run
 * ended (runner/runtime_report.ts); its stdout collected (`--json`), passed
 * through mcpx's own (a pipe whose reader may leave, decision 0013), or
 * inherited.
 *
 * @module
 */

import { concat, type RecordOutput } from "./record_output.ts";
import { StderrDemux } from "./stderr_demux.ts";
import { endedByUnsettledReport, RuntimeReportHold } from "./runtime_report.ts";
import { UNSETTLED_MESSAGE, unsettledErrorAttrs } from "../client/unsettled_await.ts";
import type { RuntimeName } from "./runtime.ts";
import type { ScriptProcess } from "./host.ts";

/** What becomes of the script's stdout. */
export type StdoutMode =
  | { mode: "collect" }
  | { mode: "pass"; write(bytes: Uint8Array): Promise<void> }
  | { mode: "inherit" };

/**
 * Starts reading a child's piped streams.
 *
 * @param child The runtime (stderr piped; stdout piped unless `inherit`), here or
 *   started by another process (runner/host.ts `ScriptSpawner`).
 * @param output Where records and stderr text go.
 * @param runtime The runtime, whose own reports are recognised.
 * @returns `finish(status)`: once the child has exited, reads to the end and
 *   resolves to the collected stdout (empty unless `collect`).
 */
export function readChildOutput(
  child: Pick<ScriptProcess, "stdout" | "stderr">,
  output: RecordOutput,
  runtime: RuntimeName,
  stdout: StdoutMode,
): { finish(status: Deno.CommandStatus): Promise<string> } {
  const hold = runtime === "deno" ? new RuntimeReportHold((b) => output.stderr(b)) : undefined;
  const demux = new StderrDemux({
    record: (r) => output.record(r),
    text: (b) => hold ? hold.text(b) : output.stderr(b),
  });
  const stderrDone = (async () => {
    for await (const chunk of child.stderr) demux.push(chunk);
    demux.end();
  })();
  const stdoutDone = stdout.mode === "collect"
    ? (async () => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of child.stdout) chunks.push(chunk);
      return new TextDecoder().decode(concat(chunks));
    })()
    : stdout.mode === "pass"
    ? (async () => {
      // Read to the end even once nobody reads ours, so the script never blocks on a full pipe.
      for await (const chunk of child.stdout) await stdout.write(chunk);
      return "";
    })()
    : Promise.resolve("");
  return {
    async finish(status) {
      const [, text] = await Promise.all([stderrDone, stdoutDone]);
      const report = hold?.end();
      if (report && endedByUnsettledReport(runtime, status)) {
        output.record({
          level: "error",
          event: "run.error",
          msg: UNSETTLED_MESSAGE,
          attrs: unsettledErrorAttrs(),
        });
      } else if (report) output.stderr(report);
      return text;
    },
  };
}

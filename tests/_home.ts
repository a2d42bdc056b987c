/**
 * A home of its own (state and cache inside it, removed when disposed) in
 * which `mcpx <argv>` runs in this process (cli/main.ts), for tests that set
 * up files before a command and look at them after it.
 */

import { main } from "../cli/main.ts";
import { memoryIo } from "../core/io.ts";

/** One home: its directory, its state directory, and commands run in it. */
export interface Home extends AsyncDisposable {
  dir: string;
  state: string;
  run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The `damaged-state` findings of `mcpx doctor --json`. */
  doctor(): Promise<{ status: string; subject?: string; message: string; fix?: string }[]>;
}

/** A new home; `await using` removes it. */
export async function home(): Promise<Home> {
  const dir = await Deno.makeTempDir();
  const state = `${dir}/s`;
  const run = async (argv: string[]) => {
    const io = memoryIo();
    const code = await main(argv, io, {
      HOME: dir,
      MCPX_STATE_DIR: state,
      MCPX_CACHE_DIR: `${dir}/c`,
      PATH: Deno.env.get("PATH") ?? "",
      // As tests/_helpers.ts world(): a project file in the home is trusted.
      MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always",
    }, dir);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };
  return {
    dir,
    state,
    run,
    async doctor() {
      const r = await run(["doctor", "--json"]);
      const report = JSON.parse(r.stdout) as {
        findings: { check: string; status: string; subject?: string; message: string }[];
      };
      return report.findings.filter((f) => f.check === "damaged-state");
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

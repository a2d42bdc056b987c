/**
 * `mcpx <argv>` run by `main()` in this process, in an empty home of its own
 * (state and cache inside it, removed after): for tests of what the command
 * line prints that need no server.
 */
import { main } from "../cli/main.ts";
import { memoryIo } from "../core/io.ts";

/** What one in-process command printed and its exit code. */
export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `mcpx <argv>` in this process.
 *
 * @param env Variables besides HOME, MCPX_STATE_DIR and MCPX_CACHE_DIR (which point into the home).
 */
export async function mcpxInProcess(
  argv: string[],
  env: Record<string, string> = {},
): Promise<InProcessResult> {
  const io = memoryIo();
  const dir = await Deno.makeTempDir();
  try {
    const code = await main(argv, io, {
      HOME: dir,
      MCPX_STATE_DIR: `${dir}/s`,
      MCPX_CACHE_DIR: `${dir}/c`,
      ...env,
    }, dir);
    return { code, stdout: io.stdout, stderr: io.stderr };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

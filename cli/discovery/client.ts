/**
 * `mcpx client -o <path>`: writes the generated client (and
 * `mcpx-globals.d.ts` beside it) for a checked-in script, so an editor can
 * type-check it (spec 000, "The generated client").
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { ensureClient } from "../../client/client_file.ts";
import { basename, dirname, join, resolve } from "../../core/posix_path.ts";
import { UsageError } from "../../core/errors.ts";
import { VERSION } from "../../core/version.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import type { InputOf } from "../../ops/op.ts";
import type { client } from "../../ops/discovery_ops.ts";

/** What `mcpx client` answers: where the client is, whether it was written, for how many namespaces. */
export interface ClientWritten {
  /** The client file's absolute path. */
  path: string;
  /** False when the file already held this client. */
  written: boolean;
  /** How many namespaces it types. */
  namespaces: number;
}

/**
 * Writes the generated client at `-o` (a directory, or a `.ts`/`.js` file name).
 *
 * @throws {UsageError} With no `-o`, or when the file cannot be written.
 */
export async function handle(
  ctx: CliContext,
  options: InputOf<typeof client>,
): Promise<Answered<ClientWritten>> {
  if (typeof options.output !== "string" || options.output === "") {
    throw new UsageError("say where to write it: `mcpx client -o <file or directory>`");
  }
  let path = resolve(ctx.cwd, options.output);
  try {
    if ((await Deno.stat(path)).isDirectory) path = join(path, "mcpx-client.ts");
  } catch {
    // A new path: `out/` (or a name without .ts) is a directory to create.
    if (options.output.endsWith("/") || !/\.[cm]?[tj]s$/.test(path)) {
      path = join(path, "mcpx-client.ts");
    }
  }
  const { namespaces } = await ctx.namespaces();
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    const { wrote } = await ensureClient(
      namespaces,
      VERSION,
      dirname(path),
      ctx.paths().cacheDir,
      { fileName: basename(path), owner: "client" },
    );
    return ok({ path, written: wrote, namespaces: namespaces.length });
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${(error as Error).message}`);
  }
}

/** `--json` prints the acknowledgement on one line. */
export const jsonLine = true;

/** `wrote /abs/mcpx-client.ts (5 namespaces)`, or `unchanged …`. */
export function text({ path, written, namespaces }: ClientWritten): string {
  return `${written ? "wrote" : "unchanged"} ${path} (${namespaces} namespaces)\n`;
}

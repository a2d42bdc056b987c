/**
 * `mcpx client -o <path>`: writes the generated client (and
 * `mcpx-globals.d.ts` beside it) for a checked-in script, so an editor can
 * type-check it (spec 000, "The generated client").
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { ensureClient } from "../client/client_file.ts";
import { basename, dirname, join, resolve } from "../core/posix_path.ts";
import { UsageError } from "../core/errors.ts";
import { VERSION } from "../core/version.ts";
import type { InputOf } from "../ops/op.ts";
import type { client } from "../ops/discovery_ops.ts";
import { printJsonLine } from "./json_out.ts";

export async function run(
  ctx: CliContext,
  options: InputOf<typeof client>,
): Promise<number> {
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
    if (await ctx.json()) {
      printJsonLine(ctx.io, { path, written: wrote, namespaces: namespaces.length });
    } else {
      ctx.io.out(`${wrote ? "wrote" : "unchanged"} ${path} (${namespaces.length} namespaces)\n`);
    }
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${(error as Error).message}`);
  }
  return 0;
}

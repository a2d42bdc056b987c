/**
 * `mcpx schema [<namespace>[.<tool>]…] [--format typescript|json-schema|openapi|mcp]`:
 * the upstream tool catalog in the form its consumer reads (the op is
 * ops/schema.ts). The JSON forms print the document itself, with or without
 * `--json`; the TypeScript form prints the declarations (`--json`:
 * `{ typescript }`). A namespace left out for having no tools is named on stderr.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { printJson } from "./json_out.ts";
import { answer } from "../ops/schema.ts";
import type { InputOf } from "../ops/op.ts";
import type { schema } from "../ops/discovery_ops.ts";

/**
 * Runs `mcpx schema`.
 *
 * @returns Exit code 0.
 * @throws {NotFoundError} for an unknown namespace or tool named.
 */
export async function run(ctx: CliContext, input: InputOf<typeof schema>): Promise<number> {
  const { output, left } = await answer(input, ctx);
  for (const { namespace, why } of left) ctx.io.err(`note: ${namespace} left out: ${why}\n`);
  if ("typescript" in output && typeof output.typescript === "string" && !(await ctx.json())) {
    ctx.io.out(output.typescript);
    return 0;
  }
  printJson(ctx.io, output);
  return 0;
}

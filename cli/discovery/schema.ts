/**
 * `mcpx schema [<namespace>[.<tool>]…] [--format typescript|json-schema|openapi|mcp]`:
 * the upstream tool catalog in the form its consumer reads (the op is
 * ops/schema.ts). The JSON forms print the document itself, with or without
 * `--json`; the TypeScript form prints the declarations (`--json`:
 * `{ typescript }`). A namespace left out for having no tools is named in a note.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { answer, type SchemaOutput } from "../../ops/schema.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import type { InputOf } from "../../ops/op.ts";
import type { schema } from "../../ops/discovery_ops.ts";

/**
 * Runs `mcpx schema`: the catalog in the form asked for, with a note for each
 * namespace left out.
 *
 * @throws {NotFoundError} for an unknown namespace or tool named.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof schema>,
): Promise<Answered<SchemaOutput>> {
  const { output, left } = await answer(input, ctx);
  return ok(output, left.map(({ namespace, why }) => `${namespace} left out: ${why}`));
}

/** The TypeScript form's declarations; any other form's document as JSON. */
export function text(output: SchemaOutput): string {
  if ("typescript" in output && typeof output.typescript === "string") return output.typescript;
  return JSON.stringify(output, null, 2) + "\n";
}

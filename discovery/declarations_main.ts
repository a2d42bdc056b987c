/**
 * The type generator's process: reads a {@link DeclarationsInput} on stdin,
 * declares each tool with `toolDeclaration` (discovery/typescript.ts, which
 * loads `json-schema-to-typescript`), writes one {@link DeclarationsOutput}
 * on stdout and exits 0. Exit 2, with an `error:` line on stderr, when stdin
 * is not a {@link DeclarationsInput}.
 *
 * The daemon starts it when a listing needs declarations
 * (engine/type_generator.ts), so the generator and what it loads (about
 * 22 MiB of the daemon's resident memory) live only as long as the listing
 * (issue 11; decision 0029). Run as
 * `deno run -A --config <checkout>/deno.json <checkout>/discovery/declarations_main.ts`.
 *
 * @module
 */

import {
  type DeclarationsInput,
  type DeclarationsOutput,
  readDeclarationsInput,
} from "./declarations_wire.ts";
import { toolDeclaration } from "./typescript.ts";

/**
 * Each requested tool's declaration, in order: what `toolDeclaration` answers
 * in this process, or `null` where it threw.
 *
 * @param input The tools and their function identifiers.
 * @returns The document the process prints.
 */
export async function declareTools(input: DeclarationsInput): Promise<DeclarationsOutput> {
  const declarations = await Promise.all(input.tools.map(async ({ tool, fn }) => {
    try {
      return await toolDeclaration(tool, fn);
    } catch {
      return null;
    }
  }));
  return { declarations };
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  let rest = bytes;
  while (rest.length > 0) rest = rest.subarray(await Deno.stdout.write(rest));
}

if (import.meta.main) {
  const text = await new Response(Deno.stdin.readable).text();
  let input: DeclarationsInput;
  try {
    input = readDeclarationsInput(text);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    Deno.exit(2);
  }
  await writeAll(new TextEncoder().encode(JSON.stringify(await declareTools(input))));
}

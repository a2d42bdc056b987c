/**
 * `mcpx untrust [file]`: forget a project configuration file's trust
 * (config/trust.ts, decision 0018); its servers are refused from the next
 * start or call. Without `file`, the configuration this directory uses.
 * For a person, as `mcpx trust` is (cli/config/trust.ts).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { resolve } from "../../core/posix_path.ts";
import { readTrustStore, trustStorePath, updateTrustStore } from "../../config/trust_store.ts";
import { NotFoundError } from "../../core/errors.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { untrust } from "../../ops/engine_ops.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import { trustTarget } from "./trust_target.ts";

/**
 * Removes the file's record (under its real path, or the path as recorded)
 * from the trust store.
 *
 * @returns `ok` with `{ file, realPath, removed: true }` (`realPath`: the key removed).
 * @throws {NotFoundError} When the file is not trusted.
 * @throws {McpxError} `no-config` without a file where no configuration is found.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof untrust>,
): Promise<Answered<OutputOf<typeof untrust>>> {
  const file = input.file === undefined
    ? (await trustTarget(ctx, undefined)).path!
    : resolve(ctx.cwd, input.file);
  const realPath = realPathOr(file);
  const store = readTrustStore(trustStorePath(ctx.paths().stateDir));
  const key = [realPath, file].find((k) => store.files[k]);
  if (!key) {
    throw new NotFoundError(
      `${file} is not trusted, so there is nothing to take back (\`mcpx trust --list\` lists ` +
        `the trusted files)`,
    );
  }
  await updateTrustStore(ctx.paths().stateDir, (files) => delete files[key]);
  return ok({ file, realPath: key, removed: true });
}

/** `untrusted <file>: …` with what happens to its servers now. */
export function text({ file }: OutputOf<typeof untrust>): string {
  return `untrusted ${file}: mcpx starts none of its servers and refuses calls to them until it ` +
    `is trusted again; running ones stop when idle, or now with \`mcpx stop\`.\n`;
}

/** `path` with symlinks resolved, or `path` itself when it cannot be (a file since removed). */
function realPathOr(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/**
 * Which of the files `deno task gen` writes are stale: generated again here,
 * in memory and in temporary folders, and compared byte for byte with the
 * checked-in ones. The process tests run the checked-in bundles
 * (cli/mcpx.bundle.js, daemon/daemon.bundle.js), so a source change without
 * `deno task gen` would otherwise be tested as the old code; tests/_prepare.ts
 * refuses to start the suite when this finds any.
 *
 * Generation is deterministic: ops/gen.ts renders the op table, and
 * `deno bundle` of the same sources gives the same bytes wherever the
 * checkout is (cli/bundle.ts {@link shippedBundle}).
 *
 * Run from the checkout: `deno run -A dev/stale_generated.ts` prints the stale
 * files and exits 1 when there are any.
 *
 * @module
 */

import { BUNDLES, shippedBundle } from "../cli/bundle.ts";
import { tableModule } from "../ops/gen.ts";
import { cliDocument } from "../ops/docs_gen.ts";

/** One generated file and how to generate it again. */
interface Generated {
  /** Path relative to the checkout. */
  path: string;
  /** Its text as `deno task gen` would write it now. */
  fresh(root: URL, signal?: AbortSignal): Promise<string>;
  /**
   * Generated after the one before it, not beside it: `deno bundle` copies its
   * esbuild binary into DENO_DIR on first use, and two at once on a fresh
   * machine race over that copy ("failed to copy esbuild binary").
   */
  oneAtATime?: true;
}

/** Every file `deno task gen` writes (ops/gen.ts, then cli/bundle.ts). */
const GENERATED: readonly Generated[] = [
  {
    path: "ops/_table.gen.ts",
    fresh: () => Promise.resolve(tableModule()),
  },
  {
    path: "docs/cli.md",
    fresh: async (root, signal) =>
      await cliDocument(await Deno.readTextFile(new URL("docs/cli.md", root)), { signal }),
  },
  ...BUNDLES.map((bundle) => ({
    path: bundle.path,
    fresh: (root: URL, signal?: AbortSignal) => shippedBundle(root, bundle, { signal }),
    oneAtATime: true as const,
  })),
];

/**
 * The generated files of the checkout at `root` that differ from what
 * `deno task gen` would write now (or are missing), in {@link GENERATED}
 * order. The bundles are generated one after the other, the rest beside them.
 *
 * @param root The checkout, a `file:` URL ending in `/`.
 * @param options.signal Cancels the generation.
 * @returns Their paths relative to the checkout; empty when all are current.
 * @throws {Error} When a generator fails (a `deno bundle` error, its stderr in the message).
 */
export async function staleGenerated(
  root: URL,
  options: { signal?: AbortSignal } = {},
): Promise<string[]> {
  const isStale = async (file: Generated) => {
    const fresh = await file.fresh(root, options.signal);
    const written = await Deno.readTextFile(new URL(file.path, root)).catch(() => undefined);
    return written === fresh ? undefined : file.path;
  };
  const together = Promise.all(GENERATED.filter((f) => !f.oneAtATime).map(isStale));
  const inTurn: (string | undefined)[] = [];
  for (const file of GENERATED.filter((f) => f.oneAtATime)) inTurn.push(await isStale(file));
  const stale = [...await together, ...inTurn];
  return GENERATED.map((f) => f.path).filter((path) => stale.includes(path));
}

if (import.meta.main) {
  const stale = await staleGenerated(new URL("../", import.meta.url));
  for (const path of stale) console.error(`stale: ${path}; run \`deno task gen\``);
  if (stale.length) Deno.exit(1);
}

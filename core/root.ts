/**
 * The checkout's root, for every module outside cli/ that names a file of the
 * checkout by URL (the script runtime's sources, deno.json, a child's module).
 *
 * A module's own `import.meta.url` is the wrong base once the module is bundled
 * into cli/mcpx.bundle.js: there it is the bundle's URL (decision 0027). This
 * module's is right both ways, because core/ (the sources) and cli/ (the
 * bundle) are both one level below the root. Building the bundle fails when a
 * module in it outside cli/ uses its own `import.meta` (cli/warm_bundle.ts).
 *
 * @module
 */

/**
 * The root of the checkout (or of a `deno compile` image), ending in `/`:
 * `file:///…/mcpx/` from the sources, the same from the bundle.
 *
 * @example
 * ```ts
 * import { ROOT_URL } from "./root.ts";
 * const config = new URL("deno.json", ROOT_URL);
 * ```
 */
export const ROOT_URL: URL = new URL("../", import.meta.url);

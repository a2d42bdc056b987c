/**
 * The checkout's root, for every module outside cli/ that names a file of the
 * checkout by URL (the script runtime's sources, deno.json, a child's module).
 *
 * A module's own `import.meta.url` is the wrong base once the module is bundled
 * into cli/mcpx.bundle.js or daemon/daemon.bundle.js: there it is the bundle's
 * URL (decisions 0027, 0031). This module's is right every way, because core/
 * (the sources), cli/ and daemon/ (the bundles) are all one level below the
 * root. Building a bundle fails when a module in it outside the bundle's own
 * folder uses its own `import.meta` (cli/bundle.ts).
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

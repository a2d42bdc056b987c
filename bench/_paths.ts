/**
 * Where the benches find the checkout and write their results (private to
 * bench/).
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** The checkout's root folder, ending in `/`. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The folder results files go to (gitignored), ending in `/`. */
export const RESULTS = `${ROOT}bench/results/`;

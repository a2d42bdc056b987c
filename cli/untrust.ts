/**
 * `mcpx untrust`: the op of its own module (cli/trust.ts holds both until its handler is split).
 *
 * @module
 */

export { untrust as run } from "./trust.ts";

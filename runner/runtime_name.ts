/**
 * The names of the script runtimes mcpx runs scripts on (spec 004, "Runtimes"):
 * the runner picks one (runner/runtime.ts) and the permissions it grants are
 * spelled per runtime (runner/permissions.ts).
 *
 * @module
 */

/** A script runtime. */
export type RuntimeName = "deno" | "bun" | "node";

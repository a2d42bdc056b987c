/**
 * mcpx's version, read once from deno.json so the two cannot drift. A CLI
 * and a daemon of different versions never talk: the CLI replaces the daemon.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/** The version in deno.json, e.g. `0.1.0`. */
export const VERSION: string = denoJson.version;

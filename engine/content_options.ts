/**
 * How a content request runs (prompts and resources, engine/content.ts; skills,
 * engine/skills.ts): one shape both take, built from a route's fields by
 * ops/daemon_content.ts.
 *
 * @module
 */

import type { InputRelay } from "./input_relay.ts";
import type { PageLimits } from "./pagination.ts";

/** How a request runs: the caller's limit (ms), its signal, the pagination bounds. */
export interface ContentOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  limits?: PageLimits;
  /** `prompts/get` and `resources/read` for a client mcpx serves (engine/input_relay.ts). */
  relay?: InputRelay;
}

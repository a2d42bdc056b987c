/**
 * What one daemon hands the next for one server (`mcpx daemon upgrade`,
 * decision 0084): a stdio server's process and FIFOs, or a Streamable HTTP
 * session to resume by its id.
 *
 * @module
 */

import type { AdoptedServer } from "./stdio_transport.ts";
import type { RemoteSession } from "./remote_transport.ts";

/** A server handed over: exactly one of the two is set. */
export interface Handed {
  process?: AdoptedServer;
  session?: RemoteSession;
}

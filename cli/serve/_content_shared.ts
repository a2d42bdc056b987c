/**
 * What plain serve's prompt and resource handlers share (cli/serve/serve_prompts.ts,
 * cli/serve/serve_content.ts): where they get their answers, who a request
 * runs for, and how a failure is answered to the client. Private to cli/serve/.
 *
 * @module
 */

import { ProtocolError, ProtocolErrorCode, type ServerContext } from "@modelcontextprotocol/server";
import { McpxError } from "../../core/errors.ts";
import type { ContentCaller, ServeDaemon } from "./serve_daemon.ts";
import type { TypesResources } from "./serve_resources.ts";
import type { SubscriptionRelay } from "./subscription_relay.ts";
import { namespacedUri, ServeNameError } from "./serve_names.ts";

/** What the handlers of one server instance answer from. */
export interface ContentDeps {
  /** The daemon's prompts, resources and completions. */
  daemon: ServeDaemon;
  /** serve's own signature resources. */
  types: TypesResources;
  /**
   * Who a request runs for (its mcpx session) and its signal.
   * @throws {ProtocolError} invalid params for a `_meta` session that is not a non-empty string.
   */
  callerOf(sctx: ServerContext): ContentCaller;
  /** A line for serve's stderr (a namespace whose listing failed). */
  note(line: string): void;
  /**
   * The connection's subscriptions and list watch (a 2025-era connection,
   * which has a channel for notifications); absent: no subscriptions, no
   * `list_changed`.
   */
  relay?: SubscriptionRelay;
}

/**
 * Runs `answer`; a failure is thrown as the client hears it: a name serve
 * did not make, a bad `_meta` session, an unknown namespace, prompt or
 * argument are invalid params (-32602), with `data` when given; any other
 * failure mcpx reports (the server failed, the daemon is unavailable) an
 * internal error (-32603) with mcpx's message. Protocol errors pass as they are.
 */
export async function answering<T>(
  answer: () => Promise<T>,
  data?: Record<string, unknown>,
): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    const invalid = error instanceof ServeNameError ||
      (error instanceof McpxError && (error.code === "usage" || error.code === "not-found"));
    if (invalid) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message, data);
    }
    if (error instanceof McpxError) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, error.message, data);
    }
    throw error;
  }
}

/** A content block or resource contents entry, as far as its URI goes. */
interface WithUri {
  type?: string;
  uri?: unknown;
  resource?: { uri?: unknown };
}

/**
 * `block` with the URI it names under `namespace` written as serve lists
 * it (cli/serve/serve_names.ts): a resource's contents entry (`uri`), an
 * embedded resource (`resource.uri`), a resource link (`uri`). Anything
 * else, or a URI that cannot be encoded, as it is.
 */
export function namespacedBlock<T>(namespace: string, block: T): T {
  if (typeof block !== "object" || block === null) return block;
  const b = block as WithUri;
  const named = (uri: unknown) => {
    if (typeof uri !== "string") return uri;
    try {
      return namespacedUri(namespace, uri);
    } catch {
      return uri;
    }
  };
  if (b.type === "resource" && typeof b.resource === "object" && b.resource !== null) {
    return { ...block, resource: { ...b.resource, uri: named(b.resource.uri) } };
  }
  if (b.type === undefined || b.type === "resource_link") {
    return "uri" in b ? { ...block, uri: named(b.uri) } : block;
  }
  return block;
}

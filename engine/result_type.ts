/**
 * A 2026-07-28 result without its `resultType`, read as complete. That
 * revision makes the field required of servers (SEP-2322), and the SDK
 * refuses a result that lacks it; the official conformance suite holds a
 * client to treating one as `complete`, the default earlier revisions imply,
 * and a server that forgot the field has still answered. So a result frame
 * on a modern connection with no `resultType` and no `inputRequests` (which
 * only an `input_required` result carries) gets `resultType: "complete"`
 * before the SDK reads it; every other frame passes untouched.
 *
 * @module
 */

import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

/** The first protocol revision whose results carry `resultType` (SEP-2322). */
const MODERN = "2026-07-28";

/**
 * Defaults the `resultType` of `message`, a frame received on a connection
 * of revision `version`, when it is a result that lacks one. Changes the
 * frame in place; true when it did.
 *
 * @example
 * ```ts
 * import { defaultResultType } from "./result_type.ts";
 * const frame = { jsonrpc: "2.0" as const, id: 1, result: { content: [] } };
 * if (!defaultResultType(frame, "2026-07-28")) throw new Error();
 * if ((frame.result as { resultType?: string }).resultType !== "complete") throw new Error();
 * ```
 */
export function defaultResultType(message: JSONRPCMessage, version: string | undefined): boolean {
  if (version === undefined || version < MODERN) return false;
  const result = (message as { result?: unknown }).result;
  if (typeof result !== "object" || result === null || Array.isArray(result)) return false;
  const r = result as Record<string, unknown>;
  if ("resultType" in r || "inputRequests" in r) return false;
  r.resultType = "complete";
  return true;
}

/**
 * Applies {@link defaultResultType} to every frame `transport` hands the SDK,
 * with the revision the SDK sets on it (`setProtocolVersion`). Composes with
 * a wrapper already installed on `onmessage` (engine/wire_check.ts). Returns
 * `transport`.
 */
export function resultTypeDefaulted<T extends Transport>(transport: T): T {
  let version: string | undefined;
  const set = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => {
    version = v;
    set?.(v);
  };
  const previous = Object.getOwnPropertyDescriptor(transport, "onmessage");
  let handler = transport.onmessage;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => previous?.get ? previous.get() : handler,
    set: (next: Transport["onmessage"]) => {
      const wrapped: Transport["onmessage"] = next && ((message, extra) => {
        defaultResultType(message, version);
        return next(message, extra);
      });
      if (previous?.set) previous.set(wrapped);
      else handler = wrapped;
    },
  });
  return transport;
}

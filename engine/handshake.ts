/**
 * What a server answered mcpx's MCP handshake, kept so that a daemon adopting
 * the server (`mcpx daemon upgrade`, engine/handoff.ts) talks to it without a
 * second `initialize`, which a server would refuse or take for a new session.
 *
 * The SDK's `Client` (client 2.4.0) keeps these in fields it fills during
 * `connect` and reads afterwards (`getServerCapabilities()`,
 * `getServerVersion()`, `getInstructions()`, `getNegotiatedProtocolVersion()`,
 * `getDiscoverResult()`); `connect` to a transport that has a `sessionId`
 * leaves them as they are. There is no public setter, so
 * {@link restoreHandshake} writes the fields `connect` writes.
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/client";

/** A server's answer to the handshake, as JSON (the handoff record holds it). */
export interface Handshake {
  /** The revision agreed (`2025-11-25`, `2026-07-28`, …). */
  protocolVersion?: string;
  capabilities?: unknown;
  /** `serverInfo`: name, version, … */
  serverVersion?: unknown;
  instructions?: string;
  /** The `server/discover` answer of a 2026 connection. */
  discover?: unknown;
}

/** The SDK client's fields behind its handshake getters (client 2.4.0). */
interface ClientFields {
  _negotiatedProtocolVersion?: string;
  _serverCapabilities?: unknown;
  _serverVersion?: unknown;
  _instructions?: string;
  _discoverResult?: unknown;
}

/** Reads `client`'s handshake, once it is connected. */
export function readHandshake(client: Client): Handshake {
  const fields = client as unknown as ClientFields;
  return {
    protocolVersion: fields._negotiatedProtocolVersion,
    capabilities: fields._serverCapabilities,
    serverVersion: fields._serverVersion,
    instructions: fields._instructions,
    discover: fields._discoverResult,
  };
}

/** Gives a client not yet connected the handshake another client had. */
export function restoreHandshake(client: Client, handshake: Handshake): void {
  const fields = client as unknown as ClientFields;
  fields._negotiatedProtocolVersion = handshake.protocolVersion;
  fields._serverCapabilities = handshake.capabilities;
  fields._serverVersion = handshake.serverVersion;
  fields._instructions = handshake.instructions;
  fields._discoverResult = handshake.discover;
}

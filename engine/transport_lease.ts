/**
 * One client's use of a stdio server's process: a transport that forwards to
 * the process and, when the client closes it, lets go of the process instead
 * of stopping it. `protocol: auto` (engine/protocol_era.ts) needs it: a
 * 2026-07-28-only server refuses `initialize` with -32022 and keeps its pipe
 * open for a modern opening, but the SDK's client closes its transport when
 * `initialize` fails, which would stop the process and cost a second start.
 *
 * The process itself is stopped by its owner (engine/instance.ts), never here.
 *
 * @module
 */

import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import type { ProcessGroupStdioTransport } from "./stdio_transport.ts";

/** A client's lease on a stdio process; `close()` detaches it and leaves the process running. */
export class TransportLease implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #process: ProcessGroupStdioTransport;
  #attached = false;
  #closed = false;

  /** @param process The process's transport, started by the first lease that starts. */
  constructor(process: ProcessGroupStdioTransport) {
    this.#process = process;
  }

  /** The process's pid: with {@link stderr}, what the SDK reads to treat this as stdio. */
  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** Always null (mcpx keeps stderr's tail itself); see {@link ProcessGroupStdioTransport.stderr}. */
  get stderr(): null {
    return null;
  }

  /** Starts the process when no lease has yet, and routes its messages to this lease. */
  async start(): Promise<void> {
    if (this.#closed) throw new Error("the server process was let go by this connection");
    if (this.#process.pid === undefined) await this.#process.start();
    this.#attached = true;
    this.#process.onmessage = (message) => {
      if (this.#attached) this.onmessage?.(message);
    };
    this.#process.onerror = (error) => {
      if (this.#attached) this.onerror?.(error);
    };
    this.#process.onclose = () => {
      if (this.#attached) this.#detach();
    };
  }

  /** The revision the client agreed, passed to the process's transport (engine/result_type.ts reads it). */
  setProtocolVersion(version: string): void {
    this.#process.setProtocolVersion?.(version);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.#attached) return Promise.reject(new Error("the server process is not running"));
    return this.#process.send(message);
  }

  /** Lets go of the process (it keeps running) and tells the client its connection ended. */
  close(): Promise<void> {
    this.#detach();
    return Promise.resolve();
  }

  #detach(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#attached = false;
    this.onclose?.();
  }
}

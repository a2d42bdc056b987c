/**
 * What mcpx answers when a server asks its client something (spec 000, "The
 * rest of the protocol", "It did not work, and nothing said so"; issue 12,
 * "Capabilities a server can use"; decision 0036). Installed on every SDK
 * `Client` at construction, before `connect()`, so the capabilities declared
 * in the handshake and the handlers that serve them cannot disagree:
 *
 * | server asks              | capability declared          | mcpx answers                            |
 * | ------------------------ | ---------------------------- | --------------------------------------- |
 * | `roots/list`             | `roots: {}` when it has some | the server's `mcpx.roots` as file URIs   |
 * | `elicitation/create`     | `elicitation: {form, url}`   | a stored question's answer (daemon)     |
 * | `sampling/createMessage` | `sampling: {}`               | a stored question's answer (daemon)     |
 * | anything else            | —                            | method-not-found (-32601)               |
 *
 * Every question is reported to `asked` (the daemon logs it as
 * `server.asked`). A server's roots never change while its instance lives
 * (they are part of its pool identity, and an edited configuration is a new
 * daemon), so `roots.listChanged` is not declared and
 * `notifications/roots/list_changed` is never sent.
 *
 * Elicitation and sampling are declared only where questions can be stored
 * and answered (a daemon: engine/questions.ts, decision 0040); elsewhere they
 * are undeclared and answered `cancel` / error -1, as decision 0036 says.
 *
 * On a 2026-07-28 connection a server asks by answering `input_required`;
 * the SDK fulfils those through the handlers registered here, so roots,
 * elicitation and sampling take the same path in both eras, and resends the
 * request with `inputResponses` and the `requestState` as received, at most
 * `elicit.inputRounds` times (the SDK's `inputRequired.maxRounds`).
 *
 * @module
 */

import {
  type Client,
  type ClientCapabilities,
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Root,
} from "@modelcontextprotocol/client";
import { toFileUrl } from "../core/file_url.ts";
import { type Asker, questionDesk } from "./questions.ts";
import { tiedCall } from "./question_tie.ts";
import { basename } from "../core/posix_path.ts";

/** One question a server asked, and what mcpx answered. */
export interface ServerAsked {
  /** The MCP method, e.g. `roots/list`. */
  method: string;
  /** What was answered: the roots, `cancel`, an error, or method-not-found. */
  answer: "roots" | "cancel" | "no-model" | "method-not-found";
  /** `roots`: how many roots were sent. */
  roots?: number;
  /** `elicitation/create` and `sampling/createMessage`: what the server asked, cut to 200 characters. */
  message?: string;
}

/** The error code of a sampling request mcpx cannot serve (the spec's example for a refused one). */
export const SAMPLING_REFUSED = -1;

/** The message a server gets for `sampling/createMessage`. */
export const NO_MODEL_MESSAGE =
  "mcpx has no model to sample with yet, so it cannot answer sampling/createMessage; the " +
  "request was logged";

/**
 * The client capabilities mcpx declares for a server: `roots` only when the
 * server has roots configured (decision 0036), nothing it cannot deliver.
 *
 * @param roots The server's `mcpx.roots` (absolute directories), or undefined.
 */
export function clientCapabilities(
  roots: readonly string[] | undefined,
  questions = questionDesk.isOpen,
): ClientCapabilities {
  return {
    ...(roots?.length ? { roots: {} } : {}),
    ...(questions ? { elicitation: { form: {}, url: {} }, sampling: {} } : {}),
  };
}

/**
 * The MCP roots for directories: a `file://` URI each (percent-encoded), named
 * by the directory's last segment.
 *
 * @example
 * ```ts
 * import { rootsOf } from "./client_handlers.ts";
 * const [r] = rootsOf(["/home/me/my project"]);
 * if (r.uri !== "file:///home/me/my%20project" || r.name !== "my project") throw new Error();
 * ```
 */
export function rootsOf(dirs: readonly string[]): Root[] {
  return dirs.map((dir) => ({ uri: toFileUrl(dir), name: basename(dir) || dir }));
}

/**
 * Installs mcpx's answers on `client` (see the module table). Call before
 * `connect()`, on a client constructed with {@link clientCapabilities} of the
 * same `roots`.
 *
 * @param client A client not yet connected.
 * @param roots The server's roots (absolute directories), or undefined.
 * @param asked Told of every question, after it is answered; must not throw.
 * @param asker Who asks (the instance), for the question desk; absent: questions are not stored.
 * @returns `client`.
 */
export function installClientHandlers(
  client: Client,
  roots: readonly string[] | undefined,
  asked: (question: ServerAsked) => void,
  asker?: () => Asker,
): Client {
  if (roots?.length) {
    const answer = rootsOf(roots);
    client.setRequestHandler("roots/list", () => {
      asked({ method: "roots/list", answer: "roots", roots: answer.length });
      return { roots: answer };
    });
  }
  if (asker && questionDesk.isOpen) {
    // The call the connection says asked, when it says (engine/question_tie.ts).
    const who = (): Asker => ({ ...asker(), ...tie() });
    client.setRequestHandler("elicitation/create", (request, ctx) =>
      questionDesk.ask(
        who(),
        "elicitation",
        (request.params ?? {}) as Record<string, unknown>,
        ctx.mcpReq.signal,
        // deno-lint-ignore no-explicit-any
      ) as any);
    client.setRequestHandler("sampling/createMessage", (request, ctx) =>
      questionDesk.ask(
        who(),
        "sampling",
        (request.params ?? {}) as Record<string, unknown>,
        ctx.mcpReq.signal,
        // deno-lint-ignore no-explicit-any
      ) as any);
  }
  client.fallbackRequestHandler = (request: JSONRPCRequest) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    if (request.method === "elicitation/create") {
      asked({ method: request.method, answer: "cancel", message: textOf(params.message) });
      return Promise.resolve({ action: "cancel" });
    }
    if (request.method === "sampling/createMessage") {
      asked({ method: request.method, answer: "no-model", message: lastMessage(params) });
      return Promise.reject(new ProtocolError(SAMPLING_REFUSED, NO_MODEL_MESSAGE));
    }
    asked({ method: request.method, answer: "method-not-found" });
    return Promise.reject(new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found"));
  };
  return client;
}

/** The asker's tie to a call, as {@link Asker} `call`: absent when the connection does not say. */
function tie(): Pick<Asker, "call"> {
  const call = tiedCall();
  return call ? { call } : {};
}

function textOf(value: unknown): string | undefined {
  return typeof value === "string" ? value.slice(0, 200) : undefined;
}

/** The text of a sampling request's last message, when it is text. */
function lastMessage(params: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(params.messages) ? params.messages : [];
  const content = (messages.at(-1) as { content?: unknown } | undefined)?.content;
  const block = Array.isArray(content) ? content[0] : content;
  return textOf((block as { text?: unknown } | undefined)?.text);
}

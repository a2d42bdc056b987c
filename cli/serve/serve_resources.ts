/**
 * What `mcpx serve` offers as resources: the TypeScript signatures mcpx holds
 * for each namespace, and for each tool, as two resource templates
 * (`mcpx://types/{namespace}`, `mcpx://types/{namespace}/{tool}`), so a host
 * that lets its user attach resources can attach a server's signatures the
 * way `mcpx_types` answers them. `resources/list` names one resource a
 * namespace; `completion/complete` completes both variables from the schema
 * cache (namespaces, and the tools of the namespace already chosen), reading
 * files only, as shell completion does (cli/completion/completion_candidates.ts): nothing is
 * started to answer it (decision 0050).
 *
 * Upstream servers' own prompts and resources are not passed through here
 * (that is `--passthrough`'s, one namespace at a time).
 *
 * @module
 */

import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import type { ContextOptions } from "../context_settings.ts";
import { serveContext } from "./serve_call.ts";
import { wordsOf } from "../completion/completion_candidates.ts";
import { loadCommand } from "../commands.ts";
import { types } from "../../ops/discovery_ops.ts";
import { errorToJson } from "../../core/errors.ts";

/** The URI scheme and path of serve's signature resources. */
export const TYPES_URI = "mcpx://types/";

/** How a resource read finds its session: the request's, as a tool call does. */
export type SessionOf = (meta: Record<string, unknown> | undefined, sessionId?: string) =>
  | string
  | undefined;

/**
 * Registers the two signature templates on `server`.
 *
 * @param base The serve command's context options.
 */
export function registerTypesResources(
  server: McpServer,
  base: ContextOptions,
  sessionOf: SessionOf,
): void {
  const words = (kind: "namespace" | "tool") =>
    wordsOf(serveContext(base, { signal: new AbortController().signal }, true).ctx, kind)
      .catch(() => [] as string[]);
  const namespaces = async (prefix: string) =>
    (await words("namespace")).filter((n) => n.startsWith(prefix));
  const read = async (
    uri: URL,
    target: string,
    ctx: { sessionId?: string; mcpReq: { _meta?: unknown; signal: AbortSignal } },
  ) => ({
    contents: [{
      uri: uri.href,
      mimeType: "text/x-typescript",
      text: await signatures(base, target, {
        session: sessionOf(ctx.mcpReq._meta as Record<string, unknown> | undefined, ctx.sessionId),
        signal: ctx.mcpReq.signal,
      }),
    }],
  });

  server.registerResource(
    "types",
    new ResourceTemplate(`${TYPES_URI}{namespace}`, {
      list: async () => ({
        resources: (await words("namespace")).map((ns) => ({
          uri: `${TYPES_URI}${encodeURIComponent(ns)}`,
          name: ns,
          title: `${ns}: tool signatures`,
          mimeType: "text/x-typescript",
        })),
      }),
      complete: { namespace: namespaces },
    }),
    {
      title: "Tool signatures of a namespace",
      description:
        "The TypeScript signatures of every tool of one namespace, as mcpx_types answers",
      mimeType: "text/x-typescript",
    },
    (uri, { namespace }, ctx) => read(uri, decodeURIComponent(String(namespace)), ctx),
  );
  server.registerResource(
    "tool-types",
    new ResourceTemplate(`${TYPES_URI}{namespace}/{tool}`, {
      list: undefined,
      complete: {
        namespace: namespaces,
        tool: async (prefix, context) => {
          const ns = context?.arguments?.namespace;
          const tools = await words("tool");
          return tools
            .filter((t) => ns === undefined || t.startsWith(`${ns}.`))
            .map((t) => t.slice(t.indexOf(".") + 1))
            .filter((t) => t.startsWith(prefix));
        },
      },
    }),
    {
      title: "Signature of one tool",
      description:
        "The TypeScript signature of one tool (namespace, then the tool's function name)",
      mimeType: "text/x-typescript",
    },
    (uri, { namespace, tool }, ctx) =>
      read(
        uri,
        `${decodeURIComponent(String(namespace))}.${decodeURIComponent(String(tool))}`,
        ctx,
      ),
  );
}

/**
 * The signatures `mcpx types <target>` prints: the types command's handler
 * and its text renderer (decision 0064).
 *
 * @throws {ProtocolError} invalid params naming the problem (an unknown
 *   namespace or tool, a configuration that cannot be read).
 */
async function signatures(
  base: ContextOptions,
  target: string,
  caller: { session?: string; signal: AbortSignal },
): Promise<string> {
  const { ctx } = serveContext(base, caller, false);
  const input = types.input.parse({ targets: [target] });
  try {
    const module = await loadCommand("types");
    if (!module.text) {
      throw new Error("the types command answers no terminal text");
    }
    const outcome = await module.handle(ctx, input);
    if (outcome.kind === "exit") {
      throw new Error(`mcpx types ${target} ended (exit ${outcome.code})`);
    }
    const text = module.text(outcome.value, {
      input,
      columns: Number(ctx.env.COLUMNS) || 120,
      kind: outcome.kind,
      extra: outcome.extra,
    });
    return typeof text === "string" ? text : text.out ?? "";
  } catch (error) {
    let document: Record<string, unknown>;
    try {
      const { configRedactor } = await import("../../config/secrets.ts");
      document = errorToJson(error, configRedactor(await ctx.config(), base.env));
    } catch {
      document = errorToJson(error);
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, String(document.message), {
      uri: `${TYPES_URI}${target}`,
    });
  }
}

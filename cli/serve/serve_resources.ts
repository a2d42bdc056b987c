/**
 * What `mcpx serve` offers as resources of its own: the TypeScript
 * signatures mcpx holds for each namespace, and for each tool, as two
 * resource templates (`mcpx://types/{namespace}`,
 * `mcpx://types/{namespace}/{tool}`), so a host that lets its user attach
 * resources can attach a server's signatures the way `mcpx_types` answers
 * them. `resources/list` names one resource a namespace; `completion/complete`
 * completes both variables from the schema cache (namespaces, and the tools
 * of the namespace already chosen), reading files only, as shell completion
 * does (cli/completion/completion_candidates.ts): nothing is started to
 * answer it (decision 0050).
 *
 * The upstream servers' own resources sit beside these under
 * `mcpx://<namespace>/…` (cli/serve/serve_names.ts, decision 0073);
 * cli/serve/serve_content.ts routes each request to one or the other.
 *
 * @module
 */

import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
} from "@modelcontextprotocol/server";
import type { ContextOptions } from "../context_settings.ts";
import { serveContext } from "./serve_call.ts";
import { wordsOf } from "../completion/completion_candidates.ts";
import { loadCommand } from "../commands.ts";
import { types } from "../../ops/discovery_ops.ts";
import { errorToJson } from "../../core/errors.ts";
import { SERVE_SCHEME, TYPES_AUTHORITY } from "./serve_names.ts";
import type { ContentCaller } from "./serve_daemon.ts";

/** The URI scheme and path of serve's signature resources. */
export const TYPES_URI = `${SERVE_SCHEME}${TYPES_AUTHORITY}/`;

const MIME = "text/x-typescript";

/** The two signature templates, as `resources/templates/list` lists them. */
export const TYPES_TEMPLATES: readonly ResourceTemplateType[] = [
  {
    name: "types",
    uriTemplate: `${TYPES_URI}{namespace}`,
    title: "Tool signatures of a namespace",
    description: "The TypeScript signatures of every tool of one namespace, as mcpx_types answers",
    mimeType: MIME,
  },
  {
    name: "tool-types",
    uriTemplate: `${TYPES_URI}{namespace}/{tool}`,
    title: "Signature of one tool",
    description: "The TypeScript signature of one tool (namespace, then the tool's function name)",
    mimeType: MIME,
  },
];

/** serve's signature resources, answered from the schema cache and the types command. */
export interface TypesResources {
  /** One resource a namespace (`mcpx://types/<namespace>`). */
  list(): Promise<Resource[]>;
  /**
   * Reads `mcpx://types/<path>`: `<namespace>` or `<namespace>/<tool>`, each percent-encoded.
   * @throws {ProtocolError} invalid params naming the problem (an unknown
   *   namespace or tool, a path of another shape, a configuration that cannot be read).
   */
  read(path: string, caller: ContentCaller): Promise<ReadResourceResult>;
  /**
   * The values of `argument` of the template at `path` (`{namespace}` or
   * `{namespace}/{tool}`) that start with its value; none for another template.
   */
  complete(
    path: string,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<string[]>;
}

/**
 * The signature resources of `base`'s configuration.
 *
 * @param base The serve command's context options.
 */
export function typesResources(base: ContextOptions): TypesResources {
  const words = (kind: "namespace" | "tool") =>
    wordsOf(serveContext(base, { signal: new AbortController().signal }, true).ctx, kind)
      .catch(() => [] as string[]);
  return {
    list: async () =>
      (await words("namespace")).map((ns) => ({
        uri: `${TYPES_URI}${encodeURIComponent(ns)}`,
        name: ns,
        title: `${ns}: tool signatures`,
        mimeType: MIME,
      })),
    async read(path, caller) {
      const uri = `${TYPES_URI}${path}`;
      let target: string;
      try {
        const parts = path.split("/").map(decodeURIComponent);
        if (parts.length > 2 || parts.some((p) => p === "")) throw new URIError("no such shape");
        target = parts.join(".");
      } catch {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `${uri} is not ${TYPES_URI}<namespace> or ${TYPES_URI}<namespace>/<tool>`,
          { uri },
        );
      }
      return {
        contents: [{ uri, mimeType: MIME, text: await signatures(base, target, uri, caller) }],
      };
    },
    async complete(path, argument, context) {
      const template = TYPES_TEMPLATES.find((t) => t.uriTemplate === `${TYPES_URI}${path}`);
      if (!template || !template.uriTemplate.includes(`{${argument.name}}`)) return [];
      if (argument.name === "namespace") {
        return (await words("namespace")).filter((n) => n.startsWith(argument.value));
      }
      const ns = context?.namespace;
      return (await words("tool"))
        .filter((t) => ns === undefined || t.startsWith(`${ns}.`))
        .map((t) => t.slice(t.indexOf(".") + 1))
        .filter((t) => t.startsWith(argument.value));
    },
  };
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
  uri: string,
  caller: ContentCaller,
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
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, String(document.message), { uri });
  }
}

/**
 * The half of MCP that is not tools, through plain `mcpx serve` (decision
 * 0073): the configured servers' prompts (cli/serve/serve_prompts.ts),
 * resources and resource templates beside serve's own signature resources
 * (cli/serve/serve_resources.ts), completion of a prompt's arguments and a
 * template's variables, and, on a 2025-era connection, resource
 * subscriptions and `list_changed` of the merged lists. Every name is
 * namespaced as cli/serve/serve_names.ts says, and every request goes to the
 * daemon as `mcpx prompts` and `mcpx resources` send it
 * (cli/serve/serve_daemon.ts): serve talks to no upstream itself.
 *
 * @module
 */

import {
  type CompleteResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { answering, type ContentDeps, namespacedBlock } from "./_content_shared.ts";
import { getPrompt, listPrompts } from "./serve_prompts.ts";
import { TYPES_TEMPLATES } from "./serve_resources.ts";
import {
  namespacedTemplate,
  namespacedUri,
  promptOf,
  serveTemplateOf,
  type ServeUri,
  serveUriOf,
} from "./serve_names.ts";
import { protocolErrorOf } from "./subscription_relay.ts";

export type { ContentDeps } from "./_content_shared.ts";

/** The most values one completion answers (MCP 2025-11-25 "Completion"). */
const MAX_COMPLETIONS = 100;

/**
 * Registers the prompts, resources, completion (and, with `deps.relay`,
 * subscription) handlers on `server`. The capabilities they need must be
 * declared first (cli/serve/serve_server.ts does).
 */
export function registerContent(server: McpServer, deps: ContentDeps): void {
  const low = server.server;
  low.setRequestHandler("prompts/list", (_request, sctx) => listPrompts(deps, sctx));
  low.setRequestHandler(
    "prompts/get",
    (request, sctx) => getPrompt(deps, request.params.name, request.params.arguments, sctx),
  );
  low.setRequestHandler("resources/list", async (_request, sctx) => ({
    resources: [...await deps.types.list(), ...(await upstreamListing(deps, sctx)).resources],
  }));
  low.setRequestHandler("resources/templates/list", async (_request, sctx) => ({
    resourceTemplates: [
      ...TYPES_TEMPLATES,
      ...(await upstreamListing(deps, sctx)).resourceTemplates,
    ],
  }));
  low.setRequestHandler("resources/read", (request, sctx) => read(deps, request.params.uri, sctx));
  low.setRequestHandler("completion/complete", (request, sctx) =>
    answering(async () => {
      const { ref, argument, context } = request.params;
      const values = ref.type === "ref/prompt"
        ? await completePrompt(deps, ref.name, argument, context?.arguments, sctx)
        : await completeTemplate(deps, ref.uri, argument, context?.arguments, sctx);
      return completionOf(values);
    }));
  const relay = deps.relay;
  if (!relay) return;
  const held = (uri: string) => {
    const named = serveUriOf(uri);
    if (named?.kind !== "upstream") {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        named
          ? `${uri} is one of serve's signature resources, which send no updates`
          : `${uri} is not a resource serve lists; resources/list names them`,
      );
    }
    return named;
  };
  const subscription = async (run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      // Another namespace may offer subscriptions: one without is this URI's refusal.
      throw protocolErrorOf(error, ProtocolErrorCode.InvalidParams);
    }
    return {};
  };
  low.setRequestHandler("resources/subscribe", (request, sctx) =>
    subscription(async () => {
      const { namespace, uri } = held(request.params.uri);
      await relay.subscribe(namespace, uri, sessionField(deps, sctx));
    }));
  low.setRequestHandler("resources/unsubscribe", (request, sctx) =>
    subscription(async () => {
      const { namespace, uri } = held(request.params.uri);
      await relay.unsubscribe(namespace, uri, sessionField(deps, sctx));
    }));
}

/** The caller field a subscription request leases as. */
function sessionField(deps: ContentDeps, sctx: ServerContext): Record<string, unknown> {
  const { session } = deps.callerOf(sctx);
  return session !== undefined ? { session } : {};
}

/**
 * Every selected namespace's resources and templates, namespaced; a
 * namespace whose listing fails is left out (said on serve's stderr), an
 * entry whose URI cannot be encoded too. Listing starts every selected
 * server that is not running (as `mcpx resources` does).
 */
function upstreamListing(
  deps: ContentDeps,
  sctx: ServerContext,
): Promise<{ resources: Resource[]; resourceTemplates: ResourceTemplateType[] }> {
  return answering(async () => {
    const listed = await deps.daemon.resources(deps.callerOf(sctx));
    deps.relay?.watchLists();
    const resources: Resource[] = [];
    const resourceTemplates: ResourceTemplateType[] = [];
    for (const ns of listed) {
      if (ns.error) {
        deps.note(`resources/list: ${ns.namespace} is left out: ${ns.error}`);
        continue;
      }
      const name = (n: string | undefined, fallback: string) => `${ns.namespace}.${n ?? fallback}`;
      for (const r of ns.resources) {
        const uri = encoded(() => namespacedUri(ns.namespace, r.uri));
        if (uri !== undefined) resources.push({ ...r, uri, name: name(r.name, r.uri) });
      }
      for (const t of ns.resourceTemplates) {
        const uriTemplate = encoded(() => namespacedTemplate(ns.namespace, t.uriTemplate));
        if (uriTemplate !== undefined) {
          resourceTemplates.push({ ...t, uriTemplate, name: name(t.name, t.uriTemplate) });
        }
      }
    }
    return { resources, resourceTemplates };
  });
}

/** What `encode` answers; undefined for a URI it cannot encode (a lone surrogate). */
function encoded(encode: () => string): string | undefined {
  try {
    return encode();
  } catch {
    return undefined;
  }
}

/** A URI or template serve named, else invalid params naming where names come from. */
function ours(uri: string, read: (uri: string) => ServeUri | undefined): ServeUri {
  const named = read(uri);
  if (!named) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${uri} is not a resource serve lists; resources/list and resources/templates/list name them`,
      { uri },
    );
  }
  return named;
}

/**
 * `resources/read`: a signature resource, or an upstream's resource read
 * through the daemon, each content's `uri` written as serve lists it.
 */
function read(deps: ContentDeps, uri: string, sctx: ServerContext): Promise<ReadResourceResult> {
  return answering(async () => {
    const named = ours(uri, serveUriOf);
    if (named.kind === "types") return await deps.types.read(named.path, deps.callerOf(sctx));
    const result = await deps.daemon.resourceRead(
      deps.callerOf(sctx),
      named.namespace,
      named.uri,
    ) as ReadResourceResult;
    return {
      ...result,
      contents: (result.contents ?? []).map((c) => namespacedBlock(named.namespace, c)),
    };
  }, { uri });
}

/** The values of a prompt's argument, from its server. */
async function completePrompt(
  deps: ContentDeps,
  name: string,
  argument: { name: string; value: string },
  context: Record<string, string> | undefined,
  sctx: ServerContext,
): Promise<Completed> {
  const [namespace, prompt] = promptOf(name);
  return await deps.daemon.complete(
    deps.callerOf(sctx),
    namespace,
    { type: "ref/prompt", name: prompt },
    argument,
    context,
  );
}

/** The values of a template's variable: serve's own from the schema cache, else from its server. */
async function completeTemplate(
  deps: ContentDeps,
  template: string,
  argument: { name: string; value: string },
  context: Record<string, string> | undefined,
  sctx: ServerContext,
): Promise<Completed> {
  const named = ours(template, serveTemplateOf);
  if (named.kind === "types") {
    return { values: await deps.types.complete(named.path, argument, context) };
  }
  return await deps.daemon.complete(
    deps.callerOf(sctx),
    named.namespace,
    { type: "ref/resource", uri: named.uri },
    argument,
    context,
  );
}

/** A completion's values, and what the server said of the rest. */
interface Completed {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

function completionOf(done: Completed): CompleteResult {
  const values = done.values.slice(0, MAX_COMPLETIONS);
  const more = done.hasMore ?? (values.length < done.values.length || undefined);
  return {
    completion: {
      values,
      ...(done.total !== undefined ? { total: done.total } : {}),
      ...(more !== undefined ? { hasMore: more } : {}),
    },
  };
}

/**
 * What plain `mcpx serve` asks the daemon for the configured servers'
 * prompts and resources: the routes `mcpx prompts` and `mcpx resources`
 * use (`prompts`, `promptGet`, `resources`, `resourceRead`, `complete`;
 * ops/routes.ts), sent from a context of the request's own as a tool call's
 * is (cli/serve/serve_call.ts `serveContext`: serve's configuration,
 * profile and setting flags, the client's session, its signal), with the
 * pagination bounds of serve's settings (cli/content/content_request.ts).
 * So the profile's selection, a disabled server and the daemon's pooling
 * and leasing apply here as they do to `mcpx prompts` (decision 0073).
 *
 * {@link ServeDaemon} is the seam: in-process tests answer it from tables.
 *
 * @module
 */

import type { ContextOptions } from "../context_settings.ts";
import type { CliContext } from "../context.ts";
import { serveContext } from "./serve_call.ts";
import { contentFields } from "../content/content_request.ts";
import { McpxError } from "../../core/errors.ts";
import type { PromptsOf, ResourcesOf } from "../../engine/content.ts";
import type { Completion, CompletionRef } from "../../engine/complete.ts";
import type { SubscriptionSource } from "./subscription_relay.ts";

/** Who a request runs for: the client's mcpx session (none: a caller of its own) and its signal. */
export interface ContentCaller {
  session?: string;
  signal: AbortSignal;
}

/** The daemon's answers serve's prompts, resources and completions are made from. */
export interface ServeDaemon extends SubscriptionSource {
  /** Every selected namespace's prompts (each failure its entry's `error`); none with no configuration. */
  prompts(caller: ContentCaller): Promise<PromptsOf[]>;
  /** `prompts/get` of `prompt` of `namespace`: the MCP `GetPromptResult`. */
  promptGet(
    caller: ContentCaller,
    namespace: string,
    prompt: string,
    args: Record<string, string>,
  ): Promise<unknown>;
  /** Every selected namespace's resources and templates; none with no configuration. */
  resources(caller: ContentCaller): Promise<ResourcesOf[]>;
  /** `resources/read` of `uri` of `namespace`: the MCP `ReadResourceResult`. */
  resourceRead(caller: ContentCaller, namespace: string, uri: string): Promise<unknown>;
  /** `completion/complete` of `argument` of `ref` of `namespace`. */
  complete(
    caller: ContentCaller,
    namespace: string,
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<Completion>;
}

/**
 * The daemon behind `base`'s configuration, started on demand as a command
 * starts it.
 *
 * @param base The serve command's context options.
 */
export function serveDaemon(base: ContextOptions): ServeDaemon {
  const contextOf = (caller: ContentCaller) => serveContext(base, caller, true).ctx;
  /** Sends `operation` for `caller` with the settings' bounds; `namespace` is checked first. */
  const content = async <T>(
    caller: ContentCaller,
    operation: string,
    params: Record<string, unknown>,
    namespace?: string,
  ): Promise<T> => {
    const ctx = contextOf(caller);
    return await ctx.request<T>(operation, {
      ...params,
      ...await contentFields(ctx, undefined, namespace),
    });
  };
  // The subscription relay's requests carry their session in their fields: one context serves them.
  let relayContext: CliContext | undefined;
  return {
    prompts: (caller) => orNone(content<PromptsOf[]>(caller, "prompts", {})),
    promptGet: (caller, namespace, prompt, args) =>
      content(caller, "promptGet", { namespace, prompt, arguments: args }, namespace),
    resources: (caller) => orNone(content<ResourcesOf[]>(caller, "resources", {})),
    resourceRead: (caller, namespace, uri) =>
      content(caller, "resourceRead", { namespace, uri }, namespace),
    async complete(caller, namespace, ref, argument, context) {
      const ctx = contextOf(caller);
      // The route takes the caller's limit only; the name is checked as for the others.
      await contentFields(ctx, undefined, namespace);
      return await ctx.request<Completion>("complete", {
        namespace,
        ref,
        argument,
        ...(context && Object.keys(context).length ? { context } : {}),
      });
    },
    request(operation, params, options) {
      relayContext ??= contextOf({ signal: new AbortController().signal });
      return relayContext.request(operation, params, options);
    },
  };
}

/** A listing, or none when there is no configuration to list from (nothing is configured). */
async function orNone<T>(listing: Promise<T[]>): Promise<T[]> {
  try {
    return await listing;
  } catch (error) {
    if (error instanceof McpxError && error.code === "no-config") return [];
    throw error;
  }
}

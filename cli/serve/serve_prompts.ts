/**
 * The configured servers' prompts through plain `mcpx serve`, each named
 * `<namespace>.<prompt>` (cli/serve/serve_names.ts; decision 0073):
 * `prompts/list` is every selected namespace's `prompts/list` (the daemon's
 * `prompts` route, as `mcpx prompts` lists them), and `prompts/get` renders
 * one through the daemon's `promptGet` (its arguments checked against the
 * prompt's declaration first). A namespace whose listing fails is left out
 * of the list and said on serve's stderr; a server without prompts has none.
 *
 * @module
 */

import type { GetPromptResult, Prompt, ServerContext } from "@modelcontextprotocol/server";
import { answering, type ContentDeps, namespacedBlock } from "./_content_shared.ts";
import { namespacedPrompt, promptOf } from "./serve_names.ts";

/**
 * `prompts/list`: every selected namespace's prompts, named `<namespace>.<prompt>`.
 * Listing starts every selected server that is not running (as `mcpx prompts` does).
 */
export function listPrompts(
  deps: ContentDeps,
  sctx: ServerContext,
): Promise<{ prompts: Prompt[] }> {
  return answering(async () => {
    const listed = await deps.daemon.prompts(deps.callerOf(sctx));
    deps.relay?.watchLists();
    const prompts: Prompt[] = [];
    for (const ns of listed) {
      if (ns.error) {
        deps.note(`prompts/list: ${ns.namespace} is left out: ${ns.error}`);
        continue;
      }
      for (const p of ns.prompts) {
        prompts.push({ ...p, name: namespacedPrompt(ns.namespace, p.name) });
      }
    }
    return { prompts };
  });
}

/**
 * `prompts/get` of `<namespace>.<prompt>` with `args`: the server's
 * `GetPromptResult`, with the URI of each embedded resource or resource
 * link written as serve lists it.
 *
 * @throws {ProtocolError} invalid params for a name that is not
 *   `<namespace>.<prompt>`, an unknown namespace or prompt, arguments that
 *   do not fit its declaration; an internal error when the server fails.
 */
export function getPrompt(
  deps: ContentDeps,
  name: string,
  args: Record<string, string> | undefined,
  sctx: ServerContext,
): Promise<GetPromptResult> {
  return answering(async () => {
    const [namespace, prompt] = promptOf(name);
    const result = await deps.daemon.promptGet(
      deps.callerOf(sctx),
      namespace,
      prompt,
      args ?? {},
    ) as GetPromptResult;
    return {
      ...result,
      messages: (result.messages ?? []).map((m) => ({
        ...m,
        content: namespacedBlock(namespace, m.content),
      })),
    };
  });
}

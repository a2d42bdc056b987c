/**
 * What the prompts and resources operations answer, as zod schemas mirroring
 * engine/content.ts's types (`PromptsOf`, `ResourcesOf`): the daemon's routes
 * (`prompts`, `resources`) and the commands' `--json` share them. A rendered
 * prompt and a read resource are the server's own MCP results
 * (`GetPromptResult`, `ReadResourceResult`), declared loosely: mcpx passes
 * them on unchanged.
 *
 * @module
 */

import * as z from "zod";

/** engine/named_arguments.ts `PromptArgumentInfo`. */
export const PromptArgument = z.object({
  name: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});

/** engine/content.ts `PromptInfo`. */
export const Prompt = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgument).optional(),
});

/** engine/content.ts `PromptsOf`: one namespace's prompts, or why they could not be listed. */
export const PromptsOf = z.object({
  namespace: z.string(),
  prompts: z.array(Prompt),
  error: z.string().optional(),
});

/** engine/content.ts `ResourceInfo` (`size` in bytes). */
export const Resource = z.object({
  uri: z.string(),
  name: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});

/** engine/content.ts `TemplateInfo`. */
export const ResourceTemplate = z.object({
  uriTemplate: z.string(),
  name: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

/** engine/content.ts `ResourcesOf`. */
export const ResourcesOf = z.object({
  namespace: z.string(),
  resources: z.array(Resource),
  resourceTemplates: z.array(ResourceTemplate),
  error: z.string().optional(),
});

/** MCP `GetPromptResult`, as the server sent it. */
export const GetPromptResult = z.looseObject({
  description: z.string().optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })),
});

/** MCP `ReadResourceResult`, as the server sent it: each content has `text` or base64 `blob`. */
export const ReadResourceResult = z.looseObject({
  contents: z.array(z.looseObject({
    uri: z.string(),
    mimeType: z.string().optional(),
    text: z.string().optional(),
    blob: z.string().optional(),
  })),
});

/** engine/complete.ts `Completion`: the values a server suggested for one argument. */
export const Completion = z.object({
  offered: z.boolean().describe("false: the server offers no completion"),
  values: z.array(z.string()),
  total: z.number().optional(),
  hasMore: z.boolean().optional(),
});

/** `mcpx prompts`: the listing, a rendered prompt, or an argument's completions. */
export const PromptsOutput = z.union([
  z.object({ namespaces: z.array(PromptsOf) }),
  GetPromptResult,
  Completion,
]);

/** `mcpx resources`: the listing, a read resource, or a template variable's completions. */
export const ResourcesOutput = z.union([
  z.object({ namespaces: z.array(ResourcesOf) }),
  ReadResourceResult,
  Completion,
]);

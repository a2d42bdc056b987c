/**
 * A namespace's prompts and resources in a script: `ns.$prompts` and
 * `ns.$resources` (issue 12, "Prompts, resources, skills"; decision 0036).
 * Each method is one request to the daemon route the CLI's `mcpx prompts`
 * and `mcpx resources` use (`prompts`, `promptGet`, `resources`,
 * `resourceRead`), leased as a tool call is, so a script and the CLI see the
 * same content through the same checks (a prompt's arguments are checked
 * against its declaration, a template's variables against the template).
 *
 * The `$` keeps them apart from tools: no tool's identifier starts with one
 * (config/identifiers.ts).
 *
 * Part of the generated client: client/bundle.ts inlines it, so it
 * imports only other client modules and runs under deno, bun and node.
 *
 * @module
 */

import { type CallOptions, daemonRequest } from "./daemon_call.ts";

/** A prompt as its server declares it (MCP `Prompt`). */
export interface PromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** A rendered prompt (MCP `GetPromptResult`): its messages, each a role and content. */
export interface PromptResult {
  description?: string;
  messages: { role: string; content: any }[];
  [key: string]: unknown;
}

/** A resource as its server declares it (MCP `Resource`; `size` in bytes). */
export interface ResourceInfo {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A resource template (MCP `ResourceTemplate`): `uriTemplate` has `{variables}`. */
export interface TemplateInfo {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A read resource (MCP `ReadResourceResult`): each content has `text`, or base64 `blob`. */
export interface ResourceResult {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
  [key: string]: unknown;
}

/**
 * The values a server suggests for one argument (MCP `completion/complete`);
 * `offered` is false when the server offers no completion (then `values` is empty).
 */
export interface Completion {
  offered: boolean;
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** `ns.$prompts`, with `Args` the argument records its prompts take. */
export interface PromptsApi<
  Args extends Record<string, Record<string, string>> = Record<string, Record<string, string>>,
> {
  /** The namespace's prompts (`prompts/list`, every page); none when its server has none. */
  list(options?: CallOptions): Promise<PromptInfo[]>;
  /**
   * Renders one prompt (`prompts/get`), its arguments checked against its declaration first.
   * @throws {McpxCallError} `not-found` for an unknown prompt, `usage` for arguments that do not fit.
   */
  get<N extends keyof Args & string>(
    name: N,
    args?: Args[N],
    options?: CallOptions,
  ): Promise<PromptResult>;
  /**
   * What the server suggests for `argument` of prompt `name`, starting with `prefix`
   * (`completion/complete`, ref/prompt); `context` gives the other arguments' values.
   */
  complete(
    name: string,
    argument: string,
    prefix: string,
    context?: Record<string, string>,
    options?: CallOptions,
  ): Promise<Completion>;
}

/** `ns.$resources`. */
export interface ResourcesApi {
  /** The namespace's resources and templates (`resources/list`, `resources/templates/list`). */
  list(options?: CallOptions): Promise<{ resources: ResourceInfo[]; templates: TemplateInfo[] }>;
  /**
   * Reads one resource (`resources/read`); a template's URI with `vars` is expanded first.
   * @throws {McpxCallError} `usage` for variables that do not fit the template; `server` when
   *   the server fails the read (an unknown URI).
   */
  read(uri: string, vars?: Record<string, string>, options?: CallOptions): Promise<ResourceResult>;
  /**
   * What the server suggests for `variable` of template `uriTemplate`, starting with `prefix`
   * (`completion/complete`, ref/resource); `context` gives the other variables' values.
   */
  complete(
    uriTemplate: string,
    variable: string,
    prefix: string,
    context?: Record<string, string>,
    options?: CallOptions,
  ): Promise<Completion>;
}

/**
 * The `$prompts` and `$resources` of one namespace.
 *
 * @param namespace The namespace identifier.
 * @returns Both, frozen.
 */
export function contentApis(
  namespace: string,
): { $prompts: PromptsApi; $resources: ResourcesApi } {
  const what = (method: string, target?: string) =>
    `${namespace} ${method}${target !== undefined ? ` ${target}` : ""}`;
  const complete = async (
    ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string },
    argument: string,
    prefix: string,
    context: Record<string, string> | undefined,
    options: CallOptions | undefined,
  ) =>
    await daemonRequest("complete", what("completion/complete", `${argument}=${prefix}`), {
      namespace,
      ref,
      argument: { name: argument, value: prefix },
      ...(context && Object.keys(context).length ? { context } : {}),
    }, options) as Completion;
  const $prompts: PromptsApi = Object.freeze({
    async list(options?: CallOptions) {
      const [one] = await daemonRequest(
        "prompts",
        what("prompts/list"),
        { namespace },
        options,
      ) as {
        prompts: PromptInfo[];
      }[];
      return one?.prompts ?? [];
    },
    async get(name: string, args?: Record<string, string>, options?: CallOptions) {
      return await daemonRequest("promptGet", what("prompts/get", name), {
        namespace,
        prompt: name,
        arguments: args ?? {},
      }, options) as PromptResult;
    },
    complete: (
      name: string,
      argument: string,
      prefix: string,
      context?: Record<string, string>,
      options?: CallOptions,
    ) => complete({ type: "ref/prompt", name }, argument, prefix, context, options),
  });
  const $resources: ResourcesApi = Object.freeze({
    async list(options?: CallOptions) {
      const [one] = await daemonRequest(
        "resources",
        what("resources/list"),
        { namespace },
        options,
      ) as { resources: ResourceInfo[]; resourceTemplates: TemplateInfo[] }[];
      return { resources: one?.resources ?? [], templates: one?.resourceTemplates ?? [] };
    },
    async read(uri: string, vars?: Record<string, string>, options?: CallOptions) {
      return await daemonRequest("resourceRead", what("resources/read", uri), {
        namespace,
        uri,
        ...(vars && Object.keys(vars).length ? { variables: vars } : {}),
      }, options) as ResourceResult;
    },
    complete: (
      uriTemplate: string,
      variable: string,
      prefix: string,
      context?: Record<string, string>,
      options?: CallOptions,
    ) => complete({ type: "ref/resource", uri: uriTemplate }, variable, prefix, context, options),
  });
  return { $prompts, $resources };
}

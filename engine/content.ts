/**
 * Prompts and resources, the half of a server that is not tools (spec 000,
 * "The half of MCP that is not tools"; MCP 2025-11-25 "Prompts",
 * "Resources"): listing them (every page, within engine/pagination.ts's
 * bounds), rendering a prompt with checked arguments, and reading a resource
 * or an expanded template, each through an instance leased as a tool call
 * leases one (engine/server_request.ts).
 *
 * A server that does not declare the capability, or answers a listing with
 * method-not-found (-32601), has none: an empty list, not an error, since
 * most servers publish no prompts and a listing of every namespace must not
 * fail on them.
 *
 * @module
 */

import { NotFoundError, ServerError } from "../core/errors.ts";
import { nearest } from "../core/nearest.ts";
import type { CallerContext } from "./scope_key.ts";
import type { Instance } from "./instance.ts";
import { checkResponseSize, DEFAULT_PAGE_LIMITS, type PageLimits, paginate } from "./pagination.ts";
import { type RequestSource, selectedNamespaces, serverRequest } from "./server_request.ts";
import {
  checkPromptArguments,
  expandTemplate,
  type PromptArgumentInfo,
} from "./named_arguments.ts";
import { messageOf } from "./error_text.ts";
import { readDirectory } from "./skills.ts";
import type { ContentOptions } from "./content_options.ts";

/** A prompt as `prompts/list` declares it (MCP `Prompt`). */
export interface PromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgumentInfo[];
}

/** A resource as `resources/list` declares it (MCP `Resource`; `size` in bytes). */
export interface ResourceInfo {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A resource template as `resources/templates/list` declares it (MCP `ResourceTemplate`). */
export interface TemplateInfo {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One namespace's prompts, or why they could not be listed. */
export interface PromptsOf {
  namespace: string;
  prompts: PromptInfo[];
  error?: string;
}

/** One namespace's resources and templates, or why they could not be listed. */
export interface ResourcesOf {
  namespace: string;
  resources: ResourceInfo[];
  resourceTemplates: TemplateInfo[];
  error?: string;
}

const METHOD_NOT_FOUND = -32601;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Only the fields named, and only when they are strings (or a number, for `size`). */
function pick(raw: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = raw[f];
    if (typeof v === "string" || (f === "size" && typeof v === "number")) out[f] = v;
  }
  return out;
}

function promptOf(raw: unknown): PromptInfo | undefined {
  if (!isObject(raw) || typeof raw.name !== "string") return undefined;
  const args = Array.isArray(raw.arguments)
    ? raw.arguments.filter((a) => isObject(a) && typeof a.name === "string").map((a) =>
      ({
        ...pick(a as Record<string, unknown>, ["name", "description"]),
        ...((a as Record<string, unknown>).required === true ? { required: true } : {}),
      }) as PromptArgumentInfo
    )
    : undefined;
  return {
    ...pick(raw, ["name", "title", "description"]),
    ...(args ? { arguments: args } : {}),
  } as PromptInfo;
}

/** A page reader for `key`'s array, keeping what `item` accepts. */
function pageOf<T>(method: string, key: string, item: (raw: unknown) => T | undefined) {
  return (answer: unknown) => {
    if (!isObject(answer) || !Array.isArray(answer[key])) {
      throw new TypeError(
        `the answer to ${method} has no "${key}" array: ${JSON.stringify(answer).slice(0, 200)}`,
      );
    }
    const items = (answer[key] as unknown[]).map(item).filter((x): x is T => x !== undefined);
    const next = answer.nextCursor;
    return { items, ...(typeof next === "string" && next ? { nextCursor: next } : {}) };
  };
}

/** True for a JSON-RPC method-not-found answer (the SDK's `ProtocolError` code -32601). */
function methodNotFound(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === METHOD_NOT_FOUND) return true;
  }
  return false;
}

/**
 * Every entry of one listing on `instance`; none when the server lacks the
 * capability or answers method-not-found.
 */
async function listAll<T>(
  instance: Instance,
  capability: "prompts" | "resources",
  method: string,
  read: (answer: unknown) => { items: T[]; nextCursor?: string },
  run: { timeoutMs: number; signal?: AbortSignal },
  limits: PageLimits,
): Promise<T[]> {
  if (!instance.client.getServerCapabilities()?.[capability]) return [];
  const about = { server: instance.spec.name, method };
  try {
    return await paginate(
      about,
      (cursor) => instance.request(method, cursor ? { cursor } : {}, run),
      (answer) => {
        try {
          return read(answer);
        } catch (error) {
          throw new ServerError(
            instance.spec.name,
            `server "${about.server}": ${messageOf(error)}`,
          );
        }
      },
      limits,
    );
  } catch (error) {
    if (methodNotFound(error)) return [];
    throw error;
  }
}

const PROMPTS = pageOf("prompts/list", "prompts", promptOf);
const RESOURCES = pageOf(
  "resources/list",
  "resources",
  (raw) =>
    isObject(raw) && typeof raw.uri === "string"
      ? pick(raw, [
        "uri",
        "name",
        "title",
        "description",
        "mimeType",
        "size",
      ]) as unknown as ResourceInfo
      : undefined,
);
const TEMPLATES = pageOf(
  "resources/templates/list",
  "resourceTemplates",
  (raw) =>
    isObject(raw) && typeof raw.uriTemplate === "string"
      ? pick(raw, [
        "uriTemplate",
        "name",
        "title",
        "description",
        "mimeType",
      ]) as unknown as TemplateInfo
      : undefined,
);

/**
 * Runs `one` for each namespace: the named one (its failure thrown, as `mcpx
 * call` reports it), or every selected one at once (each failure kept as its
 * entry's `error`, so one broken server does not hide the others).
 */
async function eachNamespace<T extends { namespace: string; error?: string }>(
  source: RequestSource,
  namespace: string | undefined,
  ctx: CallerContext,
  one: (ns: string) => Promise<T>,
  failed: (ns: string, error: string) => T,
): Promise<T[]> {
  if (namespace !== undefined) return [await one(namespace)];
  const all = selectedNamespaces(source, ctx.selection);
  const settled = await Promise.allSettled(all.map(one));
  return settled.map((s, i) =>
    s.status === "fulfilled" ? s.value : failed(all[i], messageOf(s.reason))
  );
}

/**
 * The prompts of `namespace`, or of every selected namespace.
 * @throws for a named namespace, what {@link serverRequest} throws and a pagination bound.
 */
export function listPrompts(
  source: RequestSource,
  namespace: string | undefined,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<PromptsOf[]> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return eachNamespace(
    source,
    namespace,
    ctx,
    (ns) =>
      serverRequest(source, ns, ctx, { method: "prompts/list" }, async (instance, run) => ({
        namespace: instance.spec.namespace,
        prompts: await listAll(instance, "prompts", "prompts/list", PROMPTS, run, limits),
      }), options),
    (ns, error) => ({ namespace: ns, prompts: [], error }),
  );
}

/**
 * The resources and templates of `namespace`, or of every selected namespace.
 * @throws for a named namespace, what {@link serverRequest} throws and a pagination bound.
 */
export function listResources(
  source: RequestSource,
  namespace: string | undefined,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<ResourcesOf[]> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return eachNamespace(
    source,
    namespace,
    ctx,
    (ns) =>
      serverRequest(source, ns, ctx, { method: "resources/list" }, async (instance, run) => ({
        namespace: instance.spec.namespace,
        resources: await listAll(instance, "resources", "resources/list", RESOURCES, run, limits),
        resourceTemplates: await listAll(
          instance,
          "resources",
          "resources/templates/list",
          TEMPLATES,
          run,
          limits,
        ),
      }), options),
    (ns, error) => ({ namespace: ns, resources: [], resourceTemplates: [], error }),
  );
}

/**
 * Renders prompt `name` of `namespace`: its declaration is listed first on
 * the same instance, the arguments are checked against it, then `prompts/get`.
 *
 * @param args The caller's `key=value` pairs (prompt arguments are strings).
 * @returns The MCP `GetPromptResult` as the server sent it.
 * @throws {NotFoundError} for a prompt the server does not publish (with the
 *   nearest names); {UsageError} for arguments that do not fit
 *   (engine/named_arguments.ts); {ServerError} when the server fails or the
 *   answer passes `response.maxBytes`; what {@link serverRequest} throws.
 */
export function getPrompt(
  source: RequestSource,
  namespace: string,
  name: string,
  args: Record<string, string>,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<unknown> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return serverRequest(source, namespace, ctx, { method: "prompts/get", target: name }, async (
    instance,
    run,
  ) => {
    const ns = instance.spec.namespace;
    const prompts = await listAll(instance, "prompts", "prompts/list", PROMPTS, run, limits);
    const prompt = prompts.find((p) => p.name === name);
    if (!prompt) {
      const near = nearest(name, prompts.map((p) => p.name)).map((n) => `${ns}.${n}`);
      throw new NotFoundError(
        prompts.length === 0
          ? `${ns} publishes no prompts`
          : `unknown prompt "${ns}.${name}"${
            near.length ? `; did you mean ${near.join(", ")}?` : "."
          } \`mcpx prompts ${ns}\` lists its prompts.`,
        near,
      );
    }
    checkPromptArguments(`${ns}.${name}`, prompt.arguments, args);
    const result = await instance.request("prompts/get", { name, arguments: args }, {
      ...run,
      ...(options.relay ? { relay: options.relay } : {}),
    });
    checkResponseSize({ server: instance.spec.name, method: "prompts/get" }, result, limits);
    return result;
  }, options);
}

/**
 * Reads resource `uri` of `namespace`; with `variables`, or when `uri` is a
 * template, the template expanded with them first (engine/named_arguments.ts,
 * checked before any server starts).
 *
 * @returns The MCP `ReadResourceResult` as the server sent it (`contents`
 *   with `text` or base64 `blob`); for a directory of a server declaring
 *   `directoryRead` (engine/skills.ts), `{pages}`: each `resources/directory/read` page.
 * @throws {UsageError} for variables that do not fit the template;
 *   {ServerError} when the server fails (an unknown URI included) or the
 *   answer passes `response.maxBytes`; what {@link serverRequest} throws.
 */
export function readResource(
  source: RequestSource,
  namespace: string,
  uri: string,
  variables: Record<string, string>,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<unknown> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  const target = Object.keys(variables).length || /\{[^}]*\}/.test(uri)
    ? expandTemplate(uri, variables)
    : uri;
  return serverRequest(source, namespace, ctx, { method: "resources/read", target }, async (
    instance,
    run,
  ) => {
    // A server declaring directory reads is asked for the URI's children first (spec 002).
    const directory = await readDirectory(instance, target, run, limits);
    if (directory) return directory;
    const result = await instance.request("resources/read", { uri: target }, {
      ...run,
      ...(options.relay ? { relay: options.relay } : {}),
    });
    checkResponseSize({ server: instance.spec.name, method: "resources/read" }, result, limits);
    return result;
  }, options);
}

/**
 * The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`, on MCP
 * 2026-07-28; spec 002, "Skills and Resources") and directory resources, as
 * the daemon runs them on a leased instance (engine/server_request.ts):
 *
 * - {@link listSkills}: every page of `skills/list` (engine/pagination.ts's
 *   bounds), each page kept whole, unknown fields included;
 * - {@link getSkill}: one entry by its `SKILL.md` URI (`skills/get`), listed or not;
 * - {@link verifySkill}: that entry, then its root `SKILL.md` read and checked
 *   against it (engine/skill_verify.ts);
 * - {@link readDirectory}: `resources/directory/read` when the server declares
 *   `directoryRead`, every page kept; only a -32602 answer to the first page
 *   means "not a directory", and the caller reads the URI as content.
 *
 * URIs and cursors go to the server exactly as given or received.
 *
 * @module
 */

import { ServerError } from "../core/errors.ts";
import type { CallerContext } from "./scope_key.ts";
import type { Instance } from "./instance.ts";
import { checkResponseSize, DEFAULT_PAGE_LIMITS, type PageLimits, paginate } from "./pagination.ts";
import { type RequestSource, serverRequest } from "./server_request.ts";
import type { ContentOptions } from "./content_options.ts";
import { checkSkillFile, type SkillVerification } from "./skill_verify.ts";

/** The key of the extension in a server's `capabilities.extensions` (SEP-2640). */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** JSON-RPC invalid params: what a server answers a directory read of a non-directory. */
const INVALID_PARAMS = -32602;

/** A server's skills: whether it offers the extension, and each `skills/list` page as sent. */
export interface SkillsListing {
  namespace: string;
  /** False when the server does not declare the extension: `pages` is then empty. */
  supported: boolean;
  pages: Record<string, unknown>[];
}

/** A directory's children: each `resources/directory/read` page as sent. */
export interface DirectoryListing {
  pages: Record<string, unknown>[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The extension's capability object the server declared, if any. */
function skillsCapability(instance: Instance): Record<string, unknown> | undefined {
  const caps = instance.client.getServerCapabilities() as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const cap = caps?.extensions?.[SKILLS_EXTENSION];
  return isObject(cap) ? cap : undefined;
}

/** True when the server declares `directoryRead: true` in its Skills capability. */
export function declaresDirectoryRead(instance: Instance): boolean {
  return skillsCapability(instance)?.directoryRead === true;
}

/** True when a JSON-RPC error with `code` is anywhere in `error`'s cause chain. */
export function hasCode(error: unknown, code: number): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** Every page of `method` on `instance`, each kept whole; `first` sees the first page's failure. */
function allPages(
  instance: Instance,
  method: string,
  params: Record<string, unknown>,
  key: string,
  run: { timeoutMs: number; signal?: AbortSignal },
  limits: PageLimits,
): Promise<Record<string, unknown>[]> {
  return paginate<Record<string, unknown>>(
    { server: instance.spec.name, method },
    (cursor) =>
      instance.request(method, cursor !== undefined ? { ...params, cursor } : params, run),
    (answer) => {
      if (!isObject(answer) || !Array.isArray(answer[key])) {
        throw new ServerError(
          instance.spec.name,
          `server "${instance.spec.name}": the answer to ${method} has no "${key}" array: ` +
            JSON.stringify(answer).slice(0, 200),
        );
      }
      const next = answer.nextCursor;
      return { items: [answer], ...(typeof next === "string" ? { nextCursor: next } : {}) };
    },
    limits,
  );
}

/**
 * The skills of `namespace`: every `skills/list` page. A server without the
 * extension has none (`supported: false`), not an error.
 * @throws what {@link serverRequest} throws; {ServerError} for a failed page or a pagination bound.
 */
export function listSkills(
  source: RequestSource,
  namespace: string,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<SkillsListing> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return serverRequest(source, namespace, ctx, { method: "skills/list" }, async (instance, run) => {
    const ns = instance.spec.namespace;
    if (!skillsCapability(instance)) return { namespace: ns, supported: false, pages: [] };
    const pages = await allPages(instance, "skills/list", {}, "skills", run, limits);
    return { namespace: ns, supported: true, pages };
  }, options);
}

/** `skills/get` of `uri` on `instance`: the whole result, its `skill` checked to be that entry. */
async function getOn(
  instance: Instance,
  uri: string,
  run: { timeoutMs: number; signal?: AbortSignal },
  limits: PageLimits,
): Promise<Record<string, unknown>> {
  const server = instance.spec.name;
  if (!skillsCapability(instance)) {
    throw new ServerError(
      server,
      `${instance.spec.namespace} does not offer skills (it declares no ${SKILLS_EXTENSION} ` +
        `extension)`,
    );
  }
  const result = await instance.request("skills/get", { uri }, run);
  checkResponseSize({ server, method: "skills/get" }, result, limits);
  if (!isObject(result) || !isObject(result.skill) || result.skill.uri !== uri) {
    throw new ServerError(
      server,
      `server "${server}": the answer to skills/get ${uri} is not that skill's entry: ` +
        JSON.stringify(result).slice(0, 200),
    );
  }
  return result;
}

/**
 * One skill entry by its `SKILL.md` URI: the server's `GetSkillResult` as sent.
 * @throws {ServerError} for a server without the extension, a failed get, or
 *   an answer that is not the entry of `uri`; what {@link serverRequest} throws.
 */
export function getSkill(
  source: RequestSource,
  namespace: string,
  uri: string,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<Record<string, unknown>> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return serverRequest(
    source,
    namespace,
    ctx,
    { method: "skills/get", target: uri },
    (instance, run) => getOn(instance, uri, run, limits),
    options,
  );
}

/**
 * Gets the entry of `uri`, then reads only its root `SKILL.md` on the same
 * instance and checks it against the entry (engine/skill_verify.ts). A failed
 * check is a result (`verified: false` with its problems), not an error.
 * @throws what {@link getSkill} throws; {ServerError} when the read fails.
 */
export function verifySkill(
  source: RequestSource,
  namespace: string,
  uri: string,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<SkillVerification> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return serverRequest(
    source,
    namespace,
    ctx,
    { method: "skills/get", target: uri },
    async (instance, run) => {
      const got = await getOn(instance, uri, run, limits);
      const entry = got.skill as Record<string, unknown>;
      return await checkSkillFile(uri, entry, async () => {
        const result = await instance.request("resources/read", { uri }, run);
        checkResponseSize({ server: instance.spec.name, method: "resources/read" }, result, limits);
        return result;
      });
    },
    options,
  );
}

/**
 * The children of directory `uri` on `instance` when the server declares
 * directory reads and treats `uri` as one; undefined when it does not declare
 * them or answers the first page with -32602 (read `uri` as content instead).
 * @throws {ServerError} for any other failure, a later page's included.
 */
export async function readDirectory(
  instance: Instance,
  uri: string,
  run: { timeoutMs: number; signal?: AbortSignal },
  limits: PageLimits,
): Promise<DirectoryListing | undefined> {
  if (!declaresDirectoryRead(instance)) return undefined;
  let first = true;
  const method = "resources/directory/read";
  try {
    const pages = await paginate<Record<string, unknown>>(
      { server: instance.spec.name, method },
      async (cursor) => {
        const answer = await instance.request(
          method,
          cursor !== undefined ? { uri, cursor } : { uri },
          run,
        );
        first = false;
        return answer;
      },
      (answer) => {
        if (!isObject(answer) || !Array.isArray(answer.resources)) {
          throw new ServerError(
            instance.spec.name,
            `server "${instance.spec.name}": the answer to ${method} has no "resources" array`,
          );
        }
        const next = answer.nextCursor;
        return { items: [answer], ...(typeof next === "string" ? { nextCursor: next } : {}) };
      },
      limits,
    );
    return { pages };
  } catch (error) {
    if (first && hasCode(error, INVALID_PARAMS)) return undefined;
    throw error;
  }
}

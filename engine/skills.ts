/**
 * The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`, on MCP
 * 2026-07-28; spec 002, "Skills and Resources") and directory resources, as
 * the daemon runs them on a leased instance (engine/server_request.ts):
 *
 * - {@link listSkills}: every page of `skills/list` (engine/pagination.ts's
 *   bounds), each page kept whole, unknown fields included;
 * - {@link getSkill}: one entry by its `SKILL.md` URI (`skills/get`), listed or
 *   not; when the server's `skills/get` gives no entry, the one its
 *   `skills/list` gives for that URI (decision 0074, {@link entryOn});
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

/** JSON-RPC method not found: what a server without `skills/get` answers it. */
const METHOD_NOT_FOUND = -32601;

/**
 * What the skills requests need of an instance (engine/instance.ts `Instance`
 * has it): its names, the capabilities its server declared, and its requests.
 */
export interface SkillsPeer {
  readonly spec: { readonly name: string; readonly namespace: string };
  readonly client: { getServerCapabilities(): unknown };
  request(
    method: string,
    params: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<unknown>;
}

/** Where the entry of a skill mcpx shows or verifies came from (decision 0074). */
export type EntrySource = "skills/get" | "skills/list";

/** One skill's entry as `mcpx skills <ns> <uri>` answers it. */
export interface HeldEntry {
  /**
   * The `GetSkillResult` as the server sent it; or, when its `skills/get`
   * gave no entry, `{ skill }` with the entry its `skills/list` gave (unknown
   * fields kept either way).
   */
  result: Record<string, unknown> & { skill: Record<string, unknown> };
  /** `skills/get`, or `skills/list` when the entry is the listed one. */
  entryFrom: EntrySource;
}

/** What `--verify` answers: the checks, and where the entry checked against came from. */
export type HeldVerification = SkillVerification & { entryFrom: EntrySource };

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
function skillsCapability(instance: SkillsPeer): Record<string, unknown> | undefined {
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
  instance: SkillsPeer,
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

/**
 * The entry of the skill whose `SKILL.md` is `uri`, as a host holds it
 * (SEP-2640; decision 0074): the server's `skills/get` answer when it is that
 * entry; when the answer carries no entry (`{}`), or the server does not know
 * the method (-32601), the entry its `skills/list` pages give for `uri`.
 * Nothing is read: a skill's files are requested only when it is loaded.
 *
 * @param instance The instance the requests go to.
 * @param uri The skill's `SKILL.md` URI, sent as given.
 * @param run The requests' time limit (ms) and the caller's signal.
 * @param limits The bounds on a response's size and a listing's pages.
 * @returns The entry, with the answer it came in and where from.
 * @throws {ServerError} for a server without the extension; a `skills/get`
 *   answer that is another skill's entry; a URI that neither `skills/get`
 *   nor `skills/list` gives an entry for (or the listing gives twice); a
 *   failed request (another JSON-RPC error, a timeout, a lost connection).
 */
export async function entryOn(
  instance: SkillsPeer,
  uri: string,
  run: { timeoutMs: number; signal?: AbortSignal },
  limits: PageLimits,
): Promise<HeldEntry> {
  const server = instance.spec.name;
  if (!skillsCapability(instance)) {
    throw new ServerError(
      server,
      `${instance.spec.namespace} does not offer skills (it declares no ${SKILLS_EXTENSION} ` +
        `extension)`,
    );
  }
  let answered: string;
  try {
    const result = await instance.request("skills/get", { uri }, run);
    checkResponseSize({ server, method: "skills/get" }, result, limits);
    if (isObject(result) && isObject(result.skill)) {
      if (result.skill.uri !== uri) {
        throw new ServerError(
          server,
          `server "${server}": the answer to skills/get ${uri} is not that skill's entry: ` +
            JSON.stringify(result).slice(0, 200),
        );
      }
      return { result: result as HeldEntry["result"], entryFrom: "skills/get" };
    }
    answered = `answered ${JSON.stringify(result).slice(0, 200)}, no entry`;
  } catch (error) {
    if (!hasCode(error, METHOD_NOT_FOUND)) throw error;
    answered = "is not a method this server knows (-32601)";
  }
  const pages = await allPages(instance, "skills/list", {}, "skills", run, limits);
  const listed = pages.flatMap((p) => p.skills as unknown[])
    .filter((s): s is Record<string, unknown> => isObject(s) && s.uri === uri);
  if (listed.length === 1) return { result: { skill: listed[0] }, entryFrom: "skills/list" };
  throw new ServerError(
    server,
    `server "${server}": skills/get ${uri} ${answered}, and skills/list ` +
      (listed.length === 0
        ? "does not list it either: check the URI against the skills it lists"
        : `lists it ${listed.length} times, so which entry holds is not known`),
  );
}

/**
 * One skill entry by its `SKILL.md` URI: the server's `GetSkillResult` as
 * sent, or the listed entry when `skills/get` gives none ({@link entryOn}).
 * @throws what {@link entryOn} and {@link serverRequest} throw.
 */
export function getSkill(
  source: RequestSource,
  namespace: string,
  uri: string,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<HeldEntry> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return serverRequest(
    source,
    namespace,
    ctx,
    { method: "skills/get", target: uri },
    (instance, run) => entryOn(instance, uri, run, limits),
    options,
  );
}

/**
 * Gets the entry of `uri` ({@link entryOn}), then reads only its root
 * `SKILL.md` on the same instance and checks it against the entry
 * ({@link verifyOn}). A failed check is a result (`verified: false` with its
 * problems), not an error.
 * @throws what {@link getSkill} throws; {ServerError} when the read fails.
 */
export function verifySkill(
  source: RequestSource,
  namespace: string,
  uri: string,
  ctx: CallerContext,
  options: ContentOptions = {},
): Promise<HeldVerification> {
  const limits = options.limits ?? DEFAULT_PAGE_LIMITS;
  return serverRequest(
    source,
    namespace,
    ctx,
    { method: "skills/get", target: uri },
    (instance, run) => verifyOn(instance, uri, run, limits),
    options,
  );
}

/**
 * On `instance`: the entry of `uri` ({@link entryOn}), then its root
 * `SKILL.md` alone read and checked against that entry
 * (engine/skill_verify.ts). No other file of the skill is read, whatever
 * the checks find.
 * @throws what {@link entryOn} throws; {ServerError} when the read fails.
 */
export async function verifyOn(
  instance: SkillsPeer,
  uri: string,
  run: { timeoutMs: number; signal?: AbortSignal },
  limits: PageLimits,
): Promise<HeldVerification> {
  const held = await entryOn(instance, uri, run, limits);
  const checked = await checkSkillFile(uri, held.result.skill, async () => {
    const result = await instance.request("resources/read", { uri }, run);
    checkResponseSize({ server: instance.spec.name, method: "resources/read" }, result, limits);
    return result;
  });
  return { ...checked, entryFrom: held.entryFrom };
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

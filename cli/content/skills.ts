/**
 * `mcpx skills <namespace | url> [uri] [--verify]`: the skills a server
 * offers through the Skills extension (SEP-2640; spec 002, "Skills and
 * Resources"). Without a URI, every entry of every `skills/list` page; with
 * one, that entry (`skills/get`, listed or not); with `--verify`, the entry
 * checked against its root `SKILL.md` (engine/skill_verify.ts, decision 0038),
 * exit 1 when a check fails.
 *
 * Every answer names its origin, assigned here and never taken from the
 * server: `config:sha256:<hex>` of the configuration file's path and the
 * server's name, or for a URL target `url:sha256:<hex>` of the URL without
 * its credentials. `--json` prints `{origin, result}` (a listing's result is
 * `{pages}`, each page as the server sent it), for one entry
 * `{origin, result, entryFrom}`, or for `--verify`
 * `{origin, skillUri, verified, problems, entry, entryFrom, resource}`.
 * `entryFrom` is `skills/list` when the server's `skills/get` gave no entry
 * and the one its listing gives was used (decision 0074), else `skills/get`.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { renderTable, truncate } from "../table.ts";
import type { TextView } from "../commands.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";
import { contentFields } from "./content_request.ts";
import { UsageError } from "../../core/errors.ts";
import type { InputOf } from "../../ops/op.ts";
import type { skills } from "../../ops/skills_ops.ts";
import type {
  EntrySource,
  HeldEntry,
  HeldVerification,
  SkillsListing,
} from "../../engine/skills.ts";
import { directSpelling } from "../../config/direct_target.ts";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

async function sha256Hex(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `url` without its user name and password (the part of a URL that is a credential). */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.href;
  } catch {
    return url;
  }
}

/**
 * The client-assigned origin of a skills answer: `url:sha256:<hex>` for a URL
 * target (its credentials removed before hashing), else
 * `config:sha256:<hex>` of the configuration path, a NUL, and the server name.
 */
export async function originOf(ctx: CliContext, namespace: string): Promise<string> {
  const url = ctx.direct?.entry.url;
  if (typeof url === "string") return `url:sha256:${await sha256Hex(withoutCredentials(url))}`;
  const config = await ctx.config();
  return `config:sha256:${await sha256Hex(`${config.path ?? ""}\0${namespace}`)}`;
}

/** A listing's document: the origin and every `skills/list` page, as the server sent it. */
export interface SkillsListed {
  origin: string;
  result: { supported: boolean; pages: Record<string, unknown>[] };
}

/**
 * One entry's document: the origin, the server's `skills/get` answer (or
 * `{ skill }` with the listed entry), and where the entry came from.
 */
export interface SkillGot {
  origin: string;
  result: Record<string, unknown>;
  entryFrom: EntrySource;
}

/** `--verify`'s document: the origin and the checks (engine/skill_verify.ts). */
export type SkillVerified = { origin: string } & HeldVerification;

/**
 * Runs `mcpx skills`: lists a server's skills, gets one entry, or verifies
 * one against its root `SKILL.md`.
 *
 * @returns `ok` with `{ origin, result }` (a listing's result `{ supported,
 *   pages }`), or for `--verify` `{ origin, …checks }`, `failed` when a check
 *   failed.
 * @throws {UsageError} For `--verify` without a URI.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof skills>,
): Promise<Answered<SkillsListed | SkillGot | SkillVerified>> {
  const { namespace, uri } = input;
  if (input.verify && uri === undefined) {
    throw new UsageError(
      `--verify checks one skill: \`mcpx skills ${namespace} <SKILL.md uri> --verify\`; ` +
        `\`mcpx skills ${namespace}\` lists their URIs`,
    );
  }
  const fields = await contentFields(ctx, input.timeout, namespace);
  const origin = await originOf(ctx, namespace);
  if (uri === undefined) {
    const listed = await ctx.request<SkillsListing>("skills", { namespace, ...fields });
    // The namespace the daemon resolved, and how the next command names the server (a URL
    // target by its URL): the text names them, the document never does.
    return {
      ...ok<SkillsListed>({
        origin,
        result: { supported: listed.supported, pages: listed.pages },
      }),
      extra: {
        namespace: listed.namespace,
        target: ctx.direct ? directSpelling(ctx.direct) : listed.namespace,
      },
    };
  }
  if (input.verify) {
    const checked = await ctx.request<HeldVerification>("skillGet", {
      namespace,
      uri,
      verify: true,
      ...fields,
    });
    return (checked.verified ? ok : failed)<SkillVerified>({ origin, ...checked });
  }
  const got = await ctx.request<HeldEntry>("skillGet", { namespace, uri, ...fields });
  return ok<SkillGot>({ origin, result: got.result, entryFrom: got.entryFrom });
}

/**
 * The terminal's rendering: the origin and a table of skills (or why there
 * are none), one entry's frontmatter and files, or the verification's
 * verdict with each problem.
 */
export function text(value: SkillsListed | SkillGot | SkillVerified, view: TextView): string {
  const input = view.input as InputOf<typeof skills>;
  const { origin } = value;
  if (input.uri === undefined) {
    const { result } = value as SkillsListed;
    const extra = view.extra as { namespace?: string; target?: string } | undefined;
    const namespace = extra?.namespace ?? input.namespace;
    return listingText(origin, namespace, extra?.target ?? namespace, result);
  }
  const uri = input.uri;
  if (input.verify) {
    const checked = value as SkillVerified;
    if (checked.verified) {
      const root = (checked.entry.resources as Record<string, unknown>[])
        .find((r) => r.uri === uri)!;
      return `verified ${uri} (origin ${origin}): ${root.size} bytes, ${root.digest}, UTF-8, ` +
        `frontmatter matches the entry${listedNote(checked.entryFrom)}\n`;
    }
    return `NOT verified ${uri} (origin ${origin}${listedNote(checked.entryFrom)}):\n` +
      checked.problems.map((p) => `  - ${p}\n`).join("");
  }
  const got = value as SkillGot;
  const skill = got.result.skill as Record<string, unknown>;
  let out = `origin: ${origin}\nuri: ${skill.uri}\n`;
  if (got.entryFrom === "skills/list") out += `entry: as listed (skills/get gave none)\n`;
  out += `frontmatter:\n`;
  out += indent(JSON.stringify(skill.frontmatter, null, 2));
  if (Array.isArray(skill.resources)) {
    out += `files (${skill.resources.length}):\n`;
    const rows = skill.resources.filter(isObject).map((r) => [
      String(r.uri),
      String(r.size),
      String(r.digest),
    ]);
    out += indent(renderTable(["URI", "BYTES", "DIGEST"], rows));
  } else out += `files: ${JSON.stringify(skill.resources)}\n`;
  const other = Object.keys(skill).filter((k) => !["uri", "frontmatter", "resources"].includes(k));
  if (other.length) out += `other fields: ${other.join(", ")} (--json shows them)\n`;
  return out;
}

/** What a verdict adds when the entry checked against is the listed one. */
function listedNote(from: EntrySource): string {
  return from === "skills/list" ? "; the entry as listed (skills/get gave none)" : "";
}

/**
 * A listing's text. `target` is how the next command names the server: the
 * namespace, or for a direct target its URL (or `--stdio …`).
 */
function listingText(
  origin: string,
  namespace: string,
  target: string,
  listed: SkillsListed["result"],
): string {
  if (!listed.supported) {
    return `${namespace} does not offer skills (it declares no io.modelcontextprotocol/skills ` +
      `extension)\n`;
  }
  const entries = listed.pages.flatMap((p) => Array.isArray(p.skills) ? p.skills : []);
  if (entries.length === 0) return `origin: ${origin}\n${namespace} lists no skills\n`;
  const rows = entries.filter(isObject).map((s) => {
    const fm = isObject(s.frontmatter) ? s.frontmatter : {};
    return [
      typeof fm.name === "string" ? fm.name : "",
      String(s.uri ?? ""),
      truncate(typeof fm.description === "string" ? fm.description : "", 70),
    ];
  });
  return `origin: ${origin}\n` + renderTable(["NAME", "URI", "DESCRIPTION"], rows) +
    `get one: mcpx skills ${target} <uri>; check it: add --verify\n`;
}

function indent(text: string): string {
  return text.replace(/\n$/, "").split("\n").map((l) => `  ${l}\n`).join("");
}

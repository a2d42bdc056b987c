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
 * `{pages}`, each page as the server sent it), or for `--verify`
 * `{origin, skillUri, verified, problems, entry, resource}`.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { contentFields } from "./content_request.ts";
import { UsageError } from "../core/errors.ts";
import type { InputOf } from "../ops/op.ts";
import type { skills } from "../ops/skills_ops.ts";
import type { SkillsListing } from "../engine/skills.ts";
import type { SkillVerification } from "../engine/skill_verify.ts";

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

export async function run(ctx: CliContext, input: InputOf<typeof skills>): Promise<number> {
  const { namespace, uri } = input;
  if (input.verify && uri === undefined) {
    throw new UsageError(
      `--verify checks one skill: \`mcpx skills ${namespace} <SKILL.md uri> --verify\`; ` +
        `\`mcpx skills ${namespace}\` lists their URIs`,
    );
  }
  const fields = await contentFields(ctx, input.timeout, namespace);
  const origin = await originOf(ctx, namespace);
  const json = await ctx.json();
  if (uri === undefined) {
    const listed = await ctx.request<SkillsListing>("skills", { namespace, ...fields });
    if (json) {
      printJson(ctx.io, { origin, result: { supported: listed.supported, pages: listed.pages } });
      return 0;
    }
    if (!listed.supported) {
      ctx.io.out(
        `${listed.namespace} does not offer skills (it declares no io.modelcontextprotocol/skills ` +
          `extension)\n`,
      );
      return 0;
    }
    const entries = listed.pages.flatMap((p) => Array.isArray(p.skills) ? p.skills : []);
    ctx.io.out(`origin: ${origin}\n`);
    if (entries.length === 0) {
      ctx.io.out(`${listed.namespace} lists no skills\n`);
      return 0;
    }
    const rows = entries.filter(isObject).map((s) => {
      const fm = isObject(s.frontmatter) ? s.frontmatter : {};
      return [
        typeof fm.name === "string" ? fm.name : "",
        String(s.uri ?? ""),
        truncate(typeof fm.description === "string" ? fm.description : "", 70),
      ];
    });
    ctx.io.out(renderTable(["NAME", "URI", "DESCRIPTION"], rows));
    ctx.io.out(
      `get one: mcpx skills ${listed.namespace} <uri>; check it: add --verify\n`,
    );
    return 0;
  }
  if (input.verify) {
    const checked = await ctx.request<SkillVerification>("skillGet", {
      namespace,
      uri,
      verify: true,
      ...fields,
    });
    if (json) printJson(ctx.io, { origin, ...checked });
    else if (checked.verified) {
      const root = (checked.entry.resources as Record<string, unknown>[])
        .find((r) => r.uri === uri)!;
      ctx.io.out(
        `verified ${uri} (origin ${origin}): ${root.size} bytes, ${root.digest}, UTF-8, ` +
          `frontmatter matches the entry\n`,
      );
    } else {
      ctx.io.out(`NOT verified ${uri} (origin ${origin}):\n`);
      for (const p of checked.problems) ctx.io.out(`  - ${p}\n`);
    }
    return checked.verified ? 0 : 1;
  }
  const got = await ctx.request<Record<string, unknown>>("skillGet", { namespace, uri, ...fields });
  if (json) {
    printJson(ctx.io, { origin, result: got });
    return 0;
  }
  const skill = got.skill as Record<string, unknown>;
  ctx.io.out(`origin: ${origin}\nuri: ${skill.uri}\nfrontmatter:\n`);
  ctx.io.out(indent(JSON.stringify(skill.frontmatter, null, 2)));
  if (Array.isArray(skill.resources)) {
    ctx.io.out(`files (${skill.resources.length}):\n`);
    const rows = skill.resources.filter(isObject).map((r) => [
      String(r.uri),
      String(r.size),
      String(r.digest),
    ]);
    ctx.io.out(indent(renderTable(["URI", "BYTES", "DIGEST"], rows)));
  } else ctx.io.out(`files: ${JSON.stringify(skill.resources)}\n`);
  const other = Object.keys(skill).filter((k) => !["uri", "frontmatter", "resources"].includes(k));
  if (other.length) ctx.io.out(`other fields: ${other.join(", ")} (--json shows them)\n`);
  return 0;
}

function indent(text: string): string {
  return text.replace(/\n$/, "").split("\n").map((l) => `  ${l}\n`).join("");
}

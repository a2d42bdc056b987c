/**
 * What `mcpx skills <ns> <uri> --verify` checks (spec 002, "Skills and
 * Resources"; SEP-2640; decision 0038): a skill entry's manifest bounds, then
 * its root `SKILL.md` against the entry: raw byte length, SHA-256 digest
 * (`sha256:<64 lowercase hex>`), UTF-8, and that its YAML frontmatter parses
 * (within a depth, visit and size bound) into a mapping equal, field by
 * field, to the entry's `frontmatter`. Only the root `SKILL.md` is read.
 * Passing means the bytes agree with the same server's unsigned entry; it
 * says nothing of trust.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";

/** Per-skill limits a host must accept (SEP-2640 `SKILL_LIMITS`): files and declared bytes. */
export const MANIFEST_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** Bounds on converting the frontmatter's YAML to JSON (spec 002). */
export const YAML_LIMITS = {
  depth: 128,
  visits: 1_000_000,
  outputBytes: 96 * 1024 * 1024,
} as const;

/** What verification found: `verified` when `problems` is empty. */
export interface SkillVerification {
  skillUri: string;
  verified: boolean;
  /** One sentence per failed check, naming what was expected and what was found. */
  problems: string[];
  /** The entry as the server sent it (unknown fields kept). */
  entry: Record<string, unknown>;
  /** The server's `ReadResourceResult` for `SKILL.md`, unchanged (absent when not read). */
  resource?: unknown;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `sha256:<hex>` of `bytes`. */
export async function digestOf(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return "sha256:" + Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The manifest's problems: `"dynamic"` (cannot be verified), more than 512
 * files, more than 16 MiB declared, a file without a well-formed size or
 * digest, or no entry for the root `SKILL.md`.
 */
export function manifestProblems(skillUri: string, entry: Record<string, unknown>): string[] {
  const resources = entry.resources;
  if (resources === "dynamic") {
    return ['the manifest is "dynamic": its files are not declared, so they cannot be verified'];
  }
  if (!Array.isArray(resources)) return ["the entry has no resources manifest"];
  const problems: string[] = [];
  if (resources.length > MANIFEST_LIMITS.files) {
    problems.push(
      `the manifest lists ${resources.length} files, more than ${MANIFEST_LIMITS.files}`,
    );
  }
  let total = 0;
  for (const [i, r] of resources.entries()) {
    if (!isObject(r) || typeof r.uri !== "string") {
      problems.push(`manifest entry ${i} has no uri`);
      continue;
    }
    if (typeof r.size !== "number" || !Number.isSafeInteger(r.size) || r.size < 0) {
      problems.push(`${r.uri}: declared size ${JSON.stringify(r.size)} is not a byte count`);
    } else total += r.size;
    if (typeof r.digest !== "string" || !DIGEST.test(r.digest)) {
      problems.push(`${r.uri}: declared digest ${JSON.stringify(r.digest)} is not sha256:<hex>`);
    }
  }
  if (total > MANIFEST_LIMITS.bytes) {
    problems.push(
      `the manifest declares ${total} bytes, more than ${MANIFEST_LIMITS.bytes} (16 MiB)`,
    );
  }
  if (!resources.some((r) => isObject(r) && r.uri === skillUri)) {
    problems.push(`the manifest does not list the skill's own SKILL.md (${skillUri})`);
  }
  return problems;
}

/** The bytes of the content of `uri` in a `ReadResourceResult`: its text as UTF-8, or its blob decoded. */
function contentBytes(uri: string, result: unknown): Uint8Array | string {
  const contents = isObject(result) && Array.isArray(result.contents) ? result.contents : [];
  const mine = contents.filter((c) => isObject(c) && c.uri === uri);
  const one = mine.length === 1 ? mine[0] : contents.length === 1 ? contents[0] : undefined;
  if (!isObject(one)) {
    return `the read of ${uri} answered ${contents.length} contents, not its one file`;
  }
  if (typeof one.text === "string") return new TextEncoder().encode(one.text);
  if (typeof one.blob === "string") {
    try {
      return Uint8Array.fromBase64(one.blob);
    } catch {
      return `the read of ${uri} answered a blob that is not base64`;
    }
  }
  return `the read of ${uri} answered neither text nor blob`;
}

/**
 * Converts parsed YAML to plain JSON, refusing cycles and passing the depth,
 * visit and output-size bounds of {@link YAML_LIMITS}.
 * @throws {Error} naming the bound passed.
 */
export function boundedJson(value: unknown): unknown {
  let visits = 0;
  let bytes = 0;
  const path = new Set<unknown>();
  const walk = (v: unknown, depth: number): unknown => {
    if (++visits > YAML_LIMITS.visits) throw new Error(`more than ${YAML_LIMITS.visits} nodes`);
    if (depth > YAML_LIMITS.depth) throw new Error(`nested deeper than ${YAML_LIMITS.depth}`);
    if (typeof v === "string") bytes += v.length;
    if (bytes > YAML_LIMITS.outputBytes) throw new Error("larger than 96 MiB as JSON");
    if (v === null || typeof v !== "object") {
      if (typeof v === "bigint") return Number(v);
      if (v instanceof Date) return (v as Date).toISOString();
      return v === undefined ? null : v;
    }
    if (v instanceof Date) return v.toISOString();
    if (path.has(v)) throw new Error("an alias refers to itself (a cycle)");
    path.add(v);
    try {
      if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
      const out: Record<string, unknown> = {};
      const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
      for (const [k, x] of entries) {
        Object.defineProperty(out, String(k), {
          value: walk(x, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    } finally {
      path.delete(v);
    }
  };
  return walk(value, 0);
}

/** The YAML between a document's opening `---` line and the next, or undefined without one. */
function frontmatterOf(text: string): string | undefined {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0] !== "---") return undefined;
  const end = lines.indexOf("---", 1);
  return end === -1 ? undefined : lines.slice(1, end).join("\n");
}

/** A JSON value as a difference shows it, cut at 80 characters. */
function shown(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The fields where the entry's frontmatter and the one parsed from `SKILL.md`
 * differ, compared field by field (SEP-2640): every key both ways, objects in
 * any key order, arrays in order, no type coercion. Each difference names its
 * path (`metadata.team`, `tags[1]`) and both values.
 *
 * @example
 * ```ts
 * import { frontmatterDifferences } from "./skill_verify.ts";
 * const d = frontmatterDifferences({ name: "a", description: "x" }, { name: "a", description: "y" });
 * if (d[0] !== 'description: the entry has "x", SKILL.md has "y"') throw new Error(d[0]);
 * ```
 */
export function frontmatterDifferences(entry: unknown, parsed: unknown, path = ""): string[] {
  const label = path === "" ? "the frontmatter" : path;
  if (Array.isArray(entry) && Array.isArray(parsed)) {
    if (entry.length !== parsed.length) {
      return [`${label}: the entry has ${entry.length} items, SKILL.md has ${parsed.length}`];
    }
    return entry.flatMap((x, i) => frontmatterDifferences(x, parsed[i], `${path}[${i}]`));
  }
  if (isObject(entry) && isObject(parsed)) {
    const keys = [...new Set([...Object.keys(entry), ...Object.keys(parsed)])].sort();
    return keys.flatMap((k) =>
      frontmatterDifferences(
        Object.hasOwn(entry, k) ? entry[k] : undefined,
        Object.hasOwn(parsed, k) ? parsed[k] : undefined,
        path === "" ? k : `${path}.${k}`,
      )
    );
  }
  return entry === parsed
    ? []
    : [`${label}: the entry has ${shown(entry)}, SKILL.md has ${shown(parsed)}`];
}

/**
 * Checks the skill of `skillUri` against `entry`: the manifest first; when it
 * passes, `read()` fetches the root `SKILL.md` and its bytes are checked.
 *
 * @param read Reads `SKILL.md` (`resources/read`), answering the result as sent.
 * @returns Every problem found; a failed check is not thrown.
 * @throws what `read` throws.
 */
export async function checkSkillFile(
  skillUri: string,
  entry: Record<string, unknown>,
  read: () => Promise<unknown>,
): Promise<SkillVerification> {
  const problems = manifestProblems(skillUri, entry);
  const done = (resource?: unknown): SkillVerification => ({
    skillUri,
    verified: problems.length === 0,
    problems,
    entry,
    ...(resource !== undefined ? { resource } : {}),
  });
  if (problems.length) return done();
  const declared = (entry.resources as Record<string, unknown>[]).find((r) => r.uri === skillUri)!;
  const resource = await read();
  const bytes = contentBytes(skillUri, resource);
  if (typeof bytes === "string") {
    problems.push(bytes);
    return done(resource);
  }
  if (bytes.length !== declared.size) {
    problems.push(
      `size mismatch: the entry declares ${declared.size} bytes, SKILL.md has ${bytes.length}`,
    );
  }
  const digest = await digestOf(bytes);
  if (digest !== declared.digest) {
    problems.push(`digest mismatch: the entry declares ${declared.digest}, SKILL.md is ${digest}`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    problems.push("SKILL.md is not valid UTF-8");
    return done(resource);
  }
  const yaml = frontmatterOf(text);
  if (yaml === undefined) {
    problems.push("SKILL.md has no YAML frontmatter between --- lines");
    return done(resource);
  }
  let parsed: unknown;
  try {
    parsed = boundedJson(parseYaml(yaml, { maxAliasCount: 10_000 }));
  } catch (error) {
    problems.push(`SKILL.md's frontmatter does not parse as YAML: ${(error as Error).message}`);
    return done(resource);
  }
  if (!isObject(parsed)) problems.push("SKILL.md's frontmatter is not a YAML mapping");
  else {
    const differences = frontmatterDifferences(entry.frontmatter, parsed);
    if (differences.length) {
      problems.push(`SKILL.md's frontmatter differs from the entry's: ${differences.join("; ")}`);
    }
  }
  return done(resource);
}

/**
 * Saying once what tool declarations repeat: an object type that occurs more
 * than once becomes one named `interface`, named types of several tools are
 * merged (identical ones kept once, clashing names renamed), and an argument
 * described the same way in several tools is described once for all of them.
 *
 * Source of the rule: issue 8, "Token economy of `types`" (a repeated object
 * type named once; names, required-ness, types, enum values, defaults and
 * descriptions all kept).
 *
 * @module
 */

import { codeMask } from "./_ts_text.ts";
import {
  type Declaration,
  flat,
  type Member,
  type NamedType,
  type ObjectType,
  type Part,
  type TypeExpr,
} from "./_ts_model.ts";

/** Least bytes naming an object type must save; smaller repeats stay inline. */
const MIN_SAVING = 24;

/** Names a named type may not take: built-in types, and what mcpx declares beside them. */
const RESERVED = new Set([
  "ToolResult",
  "Promise",
  "Record",
  "Array",
  "Partial",
  "Required",
  "Readonly",
  "Pick",
  "Omit",
  "Date",
  "Map",
  "Set",
  "Object",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "Function",
  "Error",
]);

/** A member's name as written in its key: `"x-y"?` → `x-y`. */
export function memberName(key: string): string {
  const name = key.replace(/\?$/, "");
  return /^(["']).*\1$/.test(name) ? name.slice(1, -1) : name;
}

/** Every identifier in the code of `text` (not in strings or comments) passed through `rename`. */
function renameText(text: string, rename: (name: string) => string): string {
  const mask = codeMask(text);
  return text.replace(/[A-Za-z_$][\w$]*/g, (id, at: number) => (mask[at] ? rename(id) : id));
}

/** Renames type references in an expression, in place (member keys are not references). */
function renameExpr(expr: TypeExpr, rename: (name: string) => string): void {
  for (const [i, part] of expr.entries()) {
    if (typeof part === "string") expr[i] = renameText(part, rename);
    else for (const m of part.members) renameExpr(m.type, rename);
  }
}

/**
 * Renames named types and every reference to them in `decl`, in place.
 *
 * @param map Old name → new name.
 */
export function renameTypes(decl: Declaration, map: Map<string, string>): void {
  if (map.size === 0) return;
  const rename = (id: string) => map.get(id) ?? id;
  for (const named of decl.named) {
    named.name = rename(named.name);
    renameExpr(named.type, rename);
  }
  renameExpr(decl.args, rename);
  renameExpr(decl.result, rename);
}

/** `entities` → `Entity`, `file_info` → `FileInfo`: a type name from a member name. */
function typeNameFor(member: string): string {
  let base = member.replace(/[^A-Za-z0-9]+([A-Za-z0-9]?)/g, (_, c: string) => c.toUpperCase());
  if (/ies$/.test(base)) base = base.slice(0, -3) + "y";
  else if (/(?:sses|xes|ches|shes)$/.test(base)) base = base.slice(0, -2);
  else if (/[^su]s$/.test(base) && base.length > 3) base = base.slice(0, -1);
  base = base.charAt(0).toUpperCase() + base.slice(1);
  if (!/^[A-Za-z_$]/.test(base)) base = `T${base}`;
  return base || "Item";
}

/** `base`, or `base2`, `base3`… the first not in `taken`. */
function freshName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name) || RESERVED.has(name); n++) name = `${base}${n}`;
  return name;
}

/** The object types of an expression, each with where it sits and the member that holds it. */
interface Occurrence {
  expr: TypeExpr;
  index: number;
  owner: string;
  text: string;
}

function occurrences(expr: TypeExpr, owner: string, out: Occurrence[], root: boolean): void {
  for (const [index, part] of expr.entries()) {
    if (typeof part === "string") continue;
    // A whole argument or result object is the tool's own shape: never named.
    if (!(root && expr.length === 1)) out.push({ expr, index, owner, text: flat([part]) });
    for (const m of part.members) occurrences(m.type, memberName(m.key), out, false);
  }
}

/** Merges adjacent text parts after a replacement. */
function compact(expr: TypeExpr): void {
  for (let i = expr.length - 1; i > 0; i--) {
    if (typeof expr[i] === "string" && typeof expr[i - 1] === "string") {
      expr[i - 1] = (expr[i - 1] as string) + (expr[i] as string);
      expr.splice(i, 1);
    }
  }
}

/**
 * Takes the named types out of `decls` into one list: a named type another
 * declaration already has (same name, same body) is kept once, and a
 * declaration whose names clash with different bodies gets fresh names
 * (`Entity2`) for all its clashing ones. Then every object type that occurs
 * more than once (in any argument or result, or a named type's body) and
 * whose naming saves at least {@link MIN_SAVING} bytes becomes an
 * `interface` named after the member holding its first occurrence
 * (`entities: {…}[]` → `Entity`), and an object type equal to a named
 * interface's body is replaced by its name.
 *
 * @param decls Declarations of one namespace (or one tool); their `named`
 *   lists are emptied and their types rewritten, in place.
 * @returns The named types, dependencies not necessarily first (TypeScript
 *   does not need them ordered).
 */
export function shareTypes(decls: Declaration[]): NamedType[] {
  const shared: NamedType[] = [];
  const bodies = new Map<string, string>(); // name → flat body
  for (const decl of decls) {
    const clashes = decl.named.filter((n) => {
      const body = bodies.get(n.name);
      return body !== undefined && body !== flat(n.type);
    });
    const taken = new Set([...bodies.keys(), ...decl.named.map((n) => n.name)]);
    const map = new Map<string, string>();
    for (const n of clashes) {
      const fresh = freshName(n.name, taken);
      taken.add(fresh);
      map.set(n.name, fresh);
    }
    renameTypes(decl, map);
    for (const n of decl.named) {
      if (bodies.has(n.name)) continue;
      bodies.set(n.name, flat(n.type));
      shared.push(n);
    }
    decl.named = [];
  }

  const taken = new Set(bodies.keys());
  for (;;) {
    const found: Occurrence[] = [];
    for (const d of decls) {
      occurrences(d.args, "args", found, true);
      occurrences(d.result, "result", found, true);
    }
    for (const n of shared) {
      for (const part of n.type) {
        if (typeof part !== "string") {
          for (const m of part.members) occurrences(m.type, memberName(m.key), found, false);
        }
      }
    }
    const byText = new Map<string, Occurrence[]>();
    for (const o of found) byText.set(o.text, [...(byText.get(o.text) ?? []), o]);
    // An object equal to a named interface's body is that interface.
    const interfaces = new Map(
      shared.filter((n) => n.kind === "interface").map((n) => [flat(n.type), n.name]),
    );
    let best: { text: string; list: Occurrence[]; saving: number } | undefined;
    for (const [text, list] of byText) {
      const existing = interfaces.get(text);
      if (existing !== undefined) {
        for (const o of list) o.expr[o.index] = existing;
        continue;
      }
      const name = typeNameFor(list[0].owner);
      const saving = (list.length - 1) * text.length -
        ("interface  ".length + name.length) - list.length * name.length;
      if (list.length >= 2 && saving >= MIN_SAVING && (!best || saving > best.saving)) {
        best = { text, list, saving };
      }
    }
    if (!best) break;
    const name = freshName(typeNameFor(best.list[0].owner), taken);
    taken.add(name);
    const body = best.list[0].expr[best.list[0].index] as ObjectType;
    for (const o of best.list) o.expr[o.index] = name;
    shared.push({ doc: [], kind: "interface", name, type: [body] });
  }
  for (const d of decls) {
    compactAll(d.args);
    compactAll(d.result);
  }
  for (const n of shared) compactAll(n.type);
  return shared;
}

function compactAll(expr: TypeExpr): void {
  compact(expr);
  for (const part of expr) {
    if (typeof part !== "string") { for (const m of part.members) compactAll(m.type); }
  }
}

/** An argument described once for several tools. */
export interface SharedArgument {
  name: string;
  /** Its JSDoc, as one line. */
  doc: string;
}

/** The top-level members of a declaration's arguments, when they are one object type. */
function argumentMembers(d: Declaration): Member[] {
  const only: Part | undefined = d.args.length === 1 ? d.args[0] : undefined;
  return typeof only === "object" ? only.members : [];
}

/**
 * Arguments that several declarations describe identically: each is
 * described once (returned) and its JSDoc removed from every tool where it
 * had exactly that text. An argument is left alone when any declaration has
 * an argument of that name with no description (the shared text would then
 * seem to apply there), or when describing it once would not save bytes.
 *
 * @param decls Declarations of one namespace, changed in place.
 * @returns The shared descriptions, in first-seen order.
 */
export function shareArgumentDocs(decls: Declaration[]): SharedArgument[] {
  const seen = new Map<string, { doc: string; count: number }[]>();
  const undocumented = new Set<string>();
  for (const d of decls) {
    for (const m of argumentMembers(d)) {
      const name = memberName(m.key);
      if (m.doc.length === 0) {
        undocumented.add(name);
        continue;
      }
      if (m.doc.some((l) => l.trim().startsWith("@"))) continue;
      const doc = m.doc.map((l) => l.trim()).filter(Boolean).join(" ");
      const list = seen.get(name) ?? [];
      const entry = list.find((e) => e.doc === doc);
      if (entry) entry.count++;
      else list.push({ doc, count: 1 });
      seen.set(name, list);
    }
  }
  const shared: SharedArgument[] = [];
  for (const [name, list] of seen) {
    if (undocumented.has(name)) continue;
    const top = list.reduce((a, b) => (b.count > a.count ? b : a));
    // Each tool saves `/** doc */ `; the namespace's JSDoc gains ` * - name: doc` and a line.
    const saving = (top.count - 1) * (top.doc.length + 7) - (name.length + 8);
    if (top.count >= 2 && saving > 0) shared.push({ name, doc: top.doc });
  }
  const byName = new Map(shared.map((s) => [s.name, s.doc]));
  for (const d of decls) {
    for (const m of argumentMembers(d)) {
      const doc = byName.get(memberName(m.key));
      if (doc !== undefined && m.doc.map((l) => l.trim()).filter(Boolean).join(" ") === doc) {
        m.doc = [];
      }
    }
  }
  return shared;
}

/** Where a sentence ends: after `.`, `!` or `?` and space, before what starts a sentence. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9"'`(])/;

/** The sentences of one line of prose. */
function sentencesOf(line: string): string[] {
  return line.split(SENTENCE_END).map((s) => s.trim()).filter(Boolean);
}

/**
 * Sentences that several tools' descriptions repeat word for word (at least
 * three tools; "Only works within allowed directories."): each is said once
 * (returned as a line naming the tools it is said of, or the ones it is
 * not, whichever is shorter) and removed from those descriptions, when that
 * saves bytes.
 *
 * @param decls Declarations of one namespace, changed in place.
 * @returns Lines for the namespace's JSDoc, e.g.
 *   `All tools except list_allowed_directories: Only works within allowed directories.`
 */
export function shareSentences(decls: Declaration[]): string[] {
  const holders = new Map<string, Set<number>>();
  decls.forEach((d, i) => {
    for (const line of d.doc) {
      for (const s of sentencesOf(line)) {
        if (s.length >= 20 && /[.!?]$/.test(s) && !s.startsWith("@")) {
          holders.set(s, (holders.get(s) ?? new Set()).add(i));
        }
      }
    }
  });
  const lines: string[] = [];
  const said = new Set<string>();
  for (const [sentence, tools] of holders) {
    if (tools.size < 3) continue;
    const others = decls.map((_, i) => i).filter((i) => !tools.has(i));
    const list = (ids: number[]) => ids.map((i) => decls[i].fn).join(", ");
    const line = others.length === 0
      ? `All tools: ${sentence}`
      : others.length < tools.size
      ? `All tools except ${list(others)}: ${sentence}`
      : `${list([...tools])}: ${sentence}`;
    if (tools.size * (sentence.length + 1) - (line.length + 4) <= 0) continue;
    lines.push(line);
    said.add(sentence);
  }
  if (said.size === 0) return lines;
  for (const d of decls) {
    // Only lines that held a sentence said once change (and go when nothing else was on them).
    d.doc = d.doc.flatMap((line) => {
      const sentences = sentencesOf(line);
      if (!sentences.some((s) => said.has(s))) return [line];
      const rest = sentences.filter((s) => !said.has(s)).join(" ");
      return rest ? [rest] : [];
    });
  }
  return lines;
}

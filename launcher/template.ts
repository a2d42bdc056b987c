/**
 * The placeholder template engine behind the launcher (spec 000, "The
 * launcher is replaceable", "Placeholders that take arguments").
 *
 * A placeholder is `@name` or `@name(a, b)`. Its fill may use other
 * placeholders; inside a fill its arguments are `@<param>`, `@1`, `@2`… and
 * `@args`. The reference graph is checked for cycles before anything is
 * substituted, a placeholder may be expanded once unless it is repeatable,
 * and a misspelt name is refused with a suggestion.
 *
 * What counts as a placeholder: `@` followed by an identifier
 * (`[A-Za-z_$][A-Za-z0-9_$]*`) or by digits, where the character before the
 * `@` is not an identifier character, `@`, `.`, `/` or `\` (so `a@b.com`,
 * `node_modules/@types/x` and `pkg@1.2` are plain text). Such a word is
 * expanded only when it names a known placeholder (or, inside a fill, one of
 * its parameters); a near miss of a known name is an error; any other word is
 * left as written, so decorators and JSDoc tags survive. String literals and
 * comments are not special: a known name inside them is expanded too (write
 * `\u0040` in a string to keep a literal `@name`).
 *
 * @module
 */

import { editDistance } from "../core/nearest.ts";
import { UsageError } from "../core/errors.ts";

/** What a placeholder expands to. */
export interface Fill {
  /** Text put in place of the placeholder; it may use placeholders itself. */
  body: string;
  /**
   * Names of the arguments the placeholder takes; a use must then give exactly
   * that many. Without it, a use may give any number, reachable as `@1`… and `@args`.
   */
  params?: string[];
}

/** Options of {@link expandTemplate}. */
export interface ExpandOptions {
  /**
   * Placeholders that may be expanded more than once in one expansion
   * (`plumbing.launcherPlaceholderRepeat`); any other is refused when it is.
   */
  repeatable?: Iterable<string>;
}

/** The result of {@link tryExpandTemplate}. */
export interface Expansion {
  /** The expanded text; undefined when the template could not be expanded at all (a cycle). */
  text: string | undefined;
  /** Every problem found, in a stable order; empty when `text` can be used. */
  problems: string[];
}

/**
 * Expands `template`, throwing one error that lists every problem.
 *
 * @param template Text with placeholders.
 * @param fills The placeholders by name (without the `@`).
 * @param options `repeatable`.
 * @returns The expanded text.
 * @throws {UsageError} Cycles (naming the path, `@a → @b → @a`), misspelt
 *   names (with "did you mean"), wrong argument counts, arguments used but not
 *   given, placeholders expanded more than once, unclosed argument lists,
 *   malformed names or parameters — all of them, in one message.
 * @example
 * ```ts
 * import { expandTemplate } from "./template.ts";
 * const text = expandTemplate("a @wrap(x) c", {
 *   wrap: { body: "[@inner]", params: ["inner"] },
 *   x: { body: "b" },
 * });
 * if (text !== "a [b] c") throw new Error(text);
 * ```
 */
export function expandTemplate(
  template: string,
  fills: Readonly<Record<string, Fill>>,
  options: ExpandOptions = {},
): string {
  const { text, problems } = tryExpandTemplate(template, fills, options);
  if (problems.length > 0 || text === undefined) throw new UsageError(problemsMessage(problems));
  return text;
}

/**
 * One message for several problems: the problem itself when there is one,
 * else a count and one `- ` line each.
 *
 * @param problems The problems, each a complete sentence.
 * @returns The message.
 */
export function problemsMessage(problems: readonly string[]): string {
  if (problems.length === 1) return problems[0];
  return `${problems.length} problems:\n${problems.map((p) => `- ${p}`).join("\n")}`;
}

/**
 * Expands `template` and returns the problems instead of throwing, so a
 * caller can merge them with its own checks and report everything at once.
 *
 * Order of work: the fills' names and parameters are validated, every text
 * reachable from the template is parsed, the reference graph is checked for
 * cycles (when there is one nothing is substituted and `text` is undefined),
 * then the text is expanded, counting each placeholder's expansions.
 *
 * @param template Text with placeholders.
 * @param fills The placeholders by name (without the `@`).
 * @param options `repeatable`.
 * @returns `{ text, problems }`.
 * @example
 * ```ts
 * import { tryExpandTemplate } from "./template.ts";
 * const { problems } = tryExpandTemplate("@entyr", { entry: { body: "run();" } });
 * if (!problems[0].includes("did you mean @entry?")) throw new Error(problems[0]);
 * ```
 */
export function tryExpandTemplate(
  template: string,
  fills: Readonly<Record<string, Fill>>,
  options: ExpandOptions = {},
): Expansion {
  const problems: string[] = [];
  const known = new Map<string, Fill>();
  for (const [name, fill] of Object.entries(fills)) {
    const bad = checkDeclaration(name, fill);
    if (bad) problems.push(bad);
    else known.set(name, fill);
  }

  // Parse every text reachable from the template, once.
  const parsed = new Map<string, Segment[]>();
  const pending: Array<[string, Segment[]]> = [];
  const parse = (owner: string | null, text: string): Segment[] => {
    const params = owner === null ? [] : known.get(owner)!.params ?? [];
    const segments = parseText(text, {
      where: owner === null ? "the template" : `@${owner}`,
      fills: known,
      params,
      positional: owner !== null,
      problems,
    });
    return segments;
  };
  const root = parse(null, template);
  pending.push(["", root]);
  const edges = new Map<string, string[]>([["", []]]);
  while (pending.length > 0) {
    const [owner, segments] = pending.pop()!;
    const targets = referencedFills(segments);
    edges.set(owner, targets);
    for (const target of targets) {
      if (parsed.has(target)) continue;
      const body = parse(target, known.get(target)!.body);
      parsed.set(target, body);
      pending.push([target, body]);
    }
  }

  const cycles = findCycles(edges);
  for (const { cycle, via } of cycles) {
    const reached = via.length === 0
      ? ""
      : ` (reached through ${via.map((n) => `@${n}`).join(" → ")})`;
    problems.push(
      `placeholders refer to each other in a loop: ${cycle.map((n) => `@${n}`).join(" → ")}` +
        `${reached}; remove one of these references`,
    );
  }
  if (cycles.length > 0) return { text: undefined, problems };

  const counts = new Map<string, number>();
  const render = (segments: Segment[], scope: Scope): string => {
    let out = "";
    for (const segment of segments) {
      if (segment.kind === "text") out += segment.text;
      else if (segment.kind === "param") out += renderParam(segment, scope);
      else out += renderFill(segment, scope);
    }
    return out;
  };
  const renderParam = (segment: ParamSegment, scope: Scope): string => {
    if (segment.ref === "args") return scope.args.map((arg) => arg()).join(", ");
    const index = typeof segment.ref === "number"
      ? segment.ref - 1
      : scope.names.indexOf(segment.ref);
    const arg = scope.args[index];
    if (arg !== undefined) return arg();
    problems.push(
      `@${segment.ref} in ${segment.where} has no argument: this use of @${scope.owner} gives ` +
        `${plural(scope.args.length, "argument")}; pass it one more, or remove @${segment.ref}`,
    );
    return "";
  };
  const renderFill = (segment: FillSegment, scope: Scope): string => {
    counts.set(segment.name, (counts.get(segment.name) ?? 0) + 1);
    const fill = known.get(segment.name)!;
    const args = (segment.args ?? []).map((arg) => () => render(arg, scope));
    const inner: Scope = { owner: segment.name, names: fill.params ?? [], args };
    return render(parsed.get(segment.name)!, inner);
  };
  const text = render(root, { owner: "", names: [], args: [] });

  const repeatable = new Set(options.repeatable ?? []);
  for (const [name, count] of counts) {
    if (count > 1 && !repeatable.has(name)) {
      problems.push(
        `@${name} is expanded ${count} times; a placeholder is expanded once unless it is listed ` +
          `in plumbing.launcherPlaceholderRepeat, so list it there or remove the extra use`,
      );
    }
  }
  return { text, problems };
}

// ---------------------------------------------------------------- parsing

type Segment = TextSegment | ParamSegment | FillSegment;
interface TextSegment {
  kind: "text";
  text: string;
}
/** `@param`, `@1`, `@args` inside a fill. */
interface ParamSegment {
  kind: "param";
  ref: string | number;
  where: string;
}
/** A use of a placeholder; `args` are parsed in the scope of the text that uses it. */
interface FillSegment {
  kind: "fill";
  name: string;
  args?: Segment[][];
}
interface Scope {
  owner: string;
  names: string[];
  args: Array<() => string>;
}

interface ParseContext {
  where: string;
  fills: ReadonlyMap<string, Fill>;
  params: readonly string[];
  /** Whether `@1`… and `@args` are arguments (true inside a fill). */
  positional: boolean;
  problems: string[];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const WORD = /@([A-Za-z_$][A-Za-z0-9_$]*|[0-9]+(?![A-Za-z_$]))/g;
const NOT_BEFORE = /[A-Za-z0-9_$@./\\]/;

function parseText(text: string, context: ParseContext, lineOffset = 0): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  const pushText = (to: number) => {
    if (to > last) segments.push({ kind: "text", text: text.slice(last, to) });
  };
  const word = new RegExp(WORD);
  for (let m = word.exec(text); m !== null; m = word.exec(text)) {
    const at = m.index;
    if (at > 0 && NOT_BEFORE.test(text[at - 1])) continue;
    const name = m[1];
    const end = at + m[0].length;
    const line = lineOffset + lineOf(text, at);
    const where = `${context.where}, line ${line}`;
    if (context.params.includes(name)) {
      pushText(at);
      segments.push({ kind: "param", ref: name, where });
      last = end;
    } else if (context.positional && (name === "args" || /^[0-9]+$/.test(name))) {
      pushText(at);
      const index = Number(name);
      if (name !== "args" && index === 0) {
        context.problems.push(`@0 in ${where} is not an argument; arguments count from @1`);
      }
      segments.push({ kind: "param", ref: name === "args" ? "args" : index, where });
      last = end;
    } else if (context.fills.has(name)) {
      pushText(at);
      const fill = context.fills.get(name)!;
      let args: Segment[][] | undefined;
      let close = end;
      if (text[end] === "(") {
        const split = splitArguments(text, end);
        if (split === undefined) {
          context.problems.push(
            `@${name}( in ${where} is not closed; add the ")" that ends its arguments`,
          );
        } else {
          close = split.end;
          args = split.args.map(({ text: arg, offset }) =>
            parseArgument(arg, context, lineOffset + lineOf(text, offset) - 1)
          );
        }
      }
      const declared = fill.params;
      if (declared !== undefined && (args?.length ?? 0) !== declared.length) {
        context.problems.push(
          `@${name} in ${where} is given ${plural(args?.length ?? 0, "argument")} but takes ` +
            `${declared.length} (${declared.join(", ")}); write @${name}(${declared.join(", ")})`,
        );
      }
      segments.push({ kind: "fill", name, args });
      last = close;
      word.lastIndex = close;
    } else {
      const candidates = [...context.fills.keys(), ...context.params];
      if (context.positional) candidates.push("args");
      const guess = nearMiss(name, candidates);
      if (guess !== undefined) {
        context.problems.push(
          `@${name} in ${where} is not a placeholder; did you mean @${guess}?`,
        );
      }
    }
  }
  pushText(text.length);
  return segments;
}

/**
 * An argument: a bare name of a parameter in scope or of a placeholder refers
 * to it; anything else is text, in which placeholders are expanded as anywhere.
 */
function parseArgument(arg: string, context: ParseContext, lineOffset: number): Segment[] {
  const trimmed = arg.trim();
  if (context.params.includes(trimmed)) {
    return [{ kind: "param", ref: trimmed, where: context.where }];
  }
  if (context.fills.has(trimmed)) return [{ kind: "fill", name: trimmed }];
  if (IDENTIFIER.test(trimmed)) {
    const guess = nearMiss(trimmed, [...context.fills.keys(), ...context.params]);
    if (guess !== undefined) {
      context.problems.push(
        `argument ${trimmed} in ${context.where} names no placeholder; did you mean ${guess}?`,
      );
    }
  }
  return parseText(trimmed, context, lineOffset);
}

/**
 * Splits `(a, b(c, d), "e,f")` starting at the `(` at `open`: commas inside
 * brackets or quotes do not split. Returns undefined when unclosed.
 */
function splitArguments(
  text: string,
  open: number,
): { args: Array<{ text: string; offset: number }>; end: number } | undefined {
  const args: Array<{ text: string; offset: number }> = [];
  let depth = 0;
  let quote = "";
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      args.push({ text: text.slice(start, i), offset: start });
      start = i + 1;
    } else if (c === ")") {
      const last = text.slice(start, i);
      if (args.length > 0 || last.trim() !== "") args.push({ text: last, offset: start });
      return { args, end: i + 1 };
    }
  }
  return undefined;
}

function referencedFills(segments: readonly Segment[]): string[] {
  const out: string[] = [];
  const visit = (list: readonly Segment[]) => {
    for (const s of list) {
      if (s.kind !== "fill") continue;
      if (!out.includes(s.name)) out.push(s.name);
      for (const arg of s.args ?? []) visit(arg);
    }
  };
  visit(segments);
  return out;
}

/**
 * Each distinct cycle once, as the path that closes it (`a, b, a`), with the
 * placeholders the template went through to reach it.
 */
function findCycles(
  edges: ReadonlyMap<string, string[]>,
): Array<{ cycle: string[]; via: string[] }> {
  const cycles: Array<{ cycle: string[]; via: string[] }> = [];
  const seen = new Set<string>();
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (node: string) => {
    if (done.has(node)) return;
    const onStack = stack.indexOf(node);
    if (onStack >= 0) {
      const cycle = [...stack.slice(onStack), node];
      const key = [...cycle.slice(0, -1)].sort().join(" ");
      if (!seen.has(key)) {
        seen.add(key);
        cycles.push({ cycle, via: stack.slice(1, onStack) });
      }
      return;
    }
    stack.push(node);
    for (const next of edges.get(node) ?? []) visit(next);
    stack.pop();
    done.add(node);
  };
  visit("");
  return cycles;
}

function checkDeclaration(name: string, fill: Fill): string | undefined {
  if (!IDENTIFIER.test(name) || name === "args") {
    return `placeholder name ${JSON.stringify(name)} is not usable; a name is letters, digits, ` +
      `_ and $, not starting with a digit, and not "args"`;
  }
  const params = fill.params ?? [];
  for (const [i, param] of params.entries()) {
    if (!IDENTIFIER.test(param) || param === "args") {
      return `@${name} has a parameter ${JSON.stringify(param)} that is not usable; a parameter ` +
        `is letters, digits, _ and $, not starting with a digit, and not "args"`;
    }
    if (params.indexOf(param) !== i) {
      return `@${name} names the parameter ${param} twice; give each parameter its own name`;
    }
  }
  return undefined;
}

/**
 * The known name `word` is a plausible misspelling of: optimal-string-alignment
 * distance (a swap of two neighbours is one edit), ignoring case, within 1 edit
 * for names of 4–7 characters and 2 for longer ones. Words shorter than 3
 * characters and names shorter than 4 are never near misses, so short tags
 * such as `@ts` are left alone.
 */
function nearMiss(word: string, candidates: readonly string[]): string | undefined {
  if (word.length < 3) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const limit = candidate.length >= 8 ? 2 : candidate.length >= 4 ? 1 : 0;
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * A route's request body held to its zod input (ops/routes.ts), and the usage
 * error that names what was wrong, field by field, in the words a command
 * line's usage errors use (`"timeoutMs" must be a whole number, got "5"`).
 *
 * @module
 */

import type * as z from "zod";
import { UsageError } from "../core/errors.ts";
import type { OpSpec } from "./op.ts";

/** Most issues named in one message; the rest are counted. */
const MOST_NAMED = 5;

/**
 * The body as the route's input (defaults filled in).
 *
 * @param route The route (its `name` and `input`).
 * @param body The body as parsed from JSON.
 * @returns The validated input.
 * @throws {UsageError} naming each field that fails the schema, what it must
 *   be and what it was, ending "nothing was run".
 */
export function routeInput<S extends OpSpec>(route: S, body: unknown): z.output<S["input"]> {
  const parsed = route.input.safeParse(body);
  if (parsed.success) return parsed.data as z.output<S["input"]>;
  throw new UsageError(`${bodyProblem(route.name, parsed.error.issues, body)}; nothing was run`);
}

/**
 * What is wrong with a body, one clause per issue.
 *
 * @param name The route's name.
 * @param issues What zod found.
 * @param body The body, to show each value that was wrong.
 * @example
 * ```ts
 * import { bodyProblem } from "./route_input.ts";
 * const text = bodyProblem("call", [{ code: "invalid_type", expected: "number",
 *   path: ["timeoutMs"], message: "", input: "5" }], { timeoutMs: "5" });
 * if (text !== 'the "call" request\'s "timeoutMs" must be a number, got "5"') throw new Error(text);
 * ```
 */
export function bodyProblem(
  name: string,
  issues: readonly z.core.$ZodIssue[],
  body: unknown,
): string {
  const clauses = issues.slice(0, MOST_NAMED).map((issue) => {
    const path = fieldPath(issue.path);
    const got = valueAt(body, issue.path);
    const what = path ? `"${path}"` : "body";
    if (issue.code === "invalid_type" && got.found === false) {
      return `${what} is missing (it must be ${expected(issue)})`;
    }
    const shown = got.found ? `, got ${show(got.value)}` : "";
    return `${what} ${mustBe(issue)}${shown}`;
  });
  const more = issues.length > MOST_NAMED ? `; and ${issues.length - MOST_NAMED} more` : "";
  return `the "${name}" request's ${clauses.join("; ")}${more}`;
}

function mustBe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${expected(issue)}`;
    case "too_small":
      return issue.origin === "string" && Number(issue.minimum) === 1
        ? "must not be empty"
        : issue.origin === "array"
        ? `must hold at least ${issue.minimum} item${Number(issue.minimum) === 1 ? "" : "s"}`
        : `must be at least ${issue.minimum}`;
    case "too_big":
      return `must be at most ${issue.maximum}`;
    case "invalid_value":
      return `must be ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
    case "unrecognized_keys":
      return `has fields it does not take: ${issue.keys.join(", ")}`;
    case "custom":
      // A refinement's message says what the field must be ("must be a JSON object").
      return /^must /.test(issue.message) ? issue.message : `is wrong: ${issue.message}`;
    default:
      return `is wrong: ${issue.message}`;
  }
}

const PHRASES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  record: "a JSON object",
  array: "an array",
  undefined: "left out",
};

function expected(issue: z.core.$ZodIssue): string {
  const type = issue.code === "invalid_type" ? issue.expected : "";
  return PHRASES[type] ?? type;
}

/** `selection.profiles[0]` for `["selection", "profiles", 0]`. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  }
  return out;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): { found: boolean; value?: unknown } {
  let at = body;
  for (const part of path) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, part)) return { found: false };
    at = (at as Record<PropertyKey, unknown>)[part];
  }
  return { found: true, value: at };
}

/** A value as JSON, cut to 60 characters. */
function show(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

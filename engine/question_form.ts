/**
 * What mcpx reads in a server's question, and what it makes of an answer
 * (decision 0040): who should answer it (spec 000, "Who answers"), its
 * requested schema in short form, and an answer given as `key=value` words
 * or JSON, checked against that schema with its defaults filled (MCP
 * 2025-11-25, "Elicitation", requested schemas are flat objects of
 * primitives and enums; SEP-1034, defaults).
 *
 * @module
 */

import type { QuestionKind, QuestionRoute } from "./questions_store.ts";

/** One field of a requested schema (a primitive, an enum, or an array of enum values). */
interface Field {
  type?: string;
  title?: string;
  description?: string;
  format?: string;
  enum?: unknown[];
  oneOf?: { const?: unknown }[];
  items?: { enum?: unknown[]; anyOf?: { const?: unknown }[] };
  default?: unknown;
  minimum?: number;
  maximum?: number;
  writeOnly?: boolean;
}

/** The fields of a requested schema, by name (own properties only). */
export function fieldsOf(schema: unknown): [string, Field][] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return [];
  return Object.entries(properties as Record<string, Field>);
}

function requiredOf(schema: unknown): string[] {
  const required = (schema as { required?: unknown } | undefined)?.required;
  return Array.isArray(required) ? required.filter((r) => typeof r === "string") : [];
}

/** Field names that ask for a credential (matched as whole words of the name). */
const CREDENTIAL =
  /(^|[^a-z])(password|passwd|passphrase|secret|token|api[-_ ]?key|apikey|credential|otp|pin)s?([^a-z]|$)/i;

/**
 * Who answers a question, and why (spec 000, "Who answers"; decision 0040):
 * a person for a URL-mode flow, a field that asks for a credential, or a bare
 * confirmation (no fields, or booleans only); the agent otherwise.
 *
 * @param kind The question's kind.
 * @param params The request's params as the server sent them.
 * @returns The route and a sentence saying why, which is logged.
 */
export function routeOf(
  kind: QuestionKind,
  params: Record<string, unknown>,
): { route: QuestionRoute; reason: string } {
  if (kind === "sampling") {
    return {
      route: "agent",
      reason: "a sampling request asks for a model's answer, and the agent driving mcpx has one",
    };
  }
  if (params.mode === "url") {
    return {
      route: "person",
      reason: "a URL-mode elicitation is a browser flow a person completes",
    };
  }
  const fields = fieldsOf(params.requestedSchema);
  const secret = fields.find(([name, f]) =>
    CREDENTIAL.test(name.replace(/([a-z])([A-Z])/g, "$1_$2")) || f.format === "password" ||
    f.writeOnly === true
  );
  if (secret) {
    return {
      route: "person",
      reason: `field "${secret[0]}" asks for a credential, which an agent should not hold`,
    };
  }
  if (fields.every(([, f]) => f.type === "boolean")) {
    return {
      route: "person",
      reason: "a bare confirmation (no fields, or only yes/no): consent is the person's to give",
    };
  }
  return {
    route: "agent",
    reason: "the agent made the call and has the context to answer",
  };
}

/** The values a field allows, when it is an enum (single or multiple select). */
function choicesOf(f: Field): unknown[] | undefined {
  if (f.enum) return f.enum;
  if (f.oneOf) return f.oneOf.map((o) => o.const);
  if (f.items?.enum) return f.items.enum;
  if (f.items?.anyOf) return f.items.anyOf.map((o) => o.const);
  return undefined;
}

/**
 * A requested schema in short form, one field a line:
 * `name: string (email) = "x"  required — description`.
 */
export function shortSchema(schema: unknown): string[] {
  const required = new Set(requiredOf(schema));
  return fieldsOf(schema).map(([name, f]) => {
    const choices = choicesOf(f);
    const type = choices
      ? `${f.type === "array" ? "some of " : "one of "}${
        choices.map((c) => JSON.stringify(c)).join("|")
      }`
      : `${f.type ?? "string"}${f.format ? ` (${f.format})` : ""}`;
    const range = f.minimum !== undefined || f.maximum !== undefined
      ? ` [${f.minimum ?? ""}..${f.maximum ?? ""}]`
      : "";
    const dflt = f.default !== undefined ? ` = ${JSON.stringify(f.default)}` : "";
    const about = f.description ?? f.title;
    return `${name}: ${type}${range}${dflt}${required.has(name) ? "  required" : ""}${
      about ? ` — ${about}` : ""
    }`;
  });
}

/**
 * An answer's words as an object: one JSON object word, or `key=value` words
 * (a value is parsed as JSON when it is a number, boolean, array or quoted
 * string; otherwise it is the text itself).
 * @throws {TypeError} for a word that is neither.
 */
export function parseAnswerWords(words: readonly string[]): Record<string, unknown> {
  if (words.length === 1 && words[0].trimStart().startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(words[0]);
    } catch (error) {
      throw new TypeError(`the answer is not JSON (${(error as Error).message})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new TypeError("a JSON answer must be an object");
    }
    return value as Record<string, unknown>;
  }
  const answer: Record<string, unknown> = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq <= 0) {
      throw new TypeError(`"${word}" is not key=value; write e.g. name=Ada, or one JSON object`);
    }
    const raw = word.slice(eq + 1);
    let value: unknown = raw;
    if (/^(-?\d|\[|"|true$|false$|null$)/.test(raw)) {
      try {
        value = JSON.parse(raw);
      } catch { /* text */ }
    }
    Object.defineProperty(answer, word.slice(0, eq), { value, enumerable: true, writable: true });
  }
  return answer;
}

/**
 * An elicitation answer checked against the requested schema, with the
 * schema's defaults filled for fields the answer leaves out (SEP-1034) and
 * text coerced where the field's type asks (`42` for an integer).
 *
 * @returns The content to send with `action: "accept"`.
 * @throws {TypeError} naming the field, the value and what it takes.
 */
export function checkAnswer(
  schema: unknown,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const fields = new Map(fieldsOf(schema));
  const content: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    const f = fields.get(name);
    if (!f) {
      throw new TypeError(
        `the question has no field "${name}"; its fields: ${
          [...fields.keys()].join(", ") || "none"
        }`,
      );
    }
    Object.defineProperty(content, name, {
      value: coerce(name, f, value),
      enumerable: true,
      writable: true,
    });
  }
  for (const [name, f] of fields) {
    if (!Object.hasOwn(content, name) && f.default !== undefined) {
      Object.defineProperty(content, name, { value: f.default, enumerable: true, writable: true });
    }
  }
  const missing = requiredOf(schema).filter((r) => !Object.hasOwn(content, r));
  if (missing.length) {
    throw new TypeError(
      `required field${missing.length > 1 ? "s" : ""} missing: ${missing.join(", ")}`,
    );
  }
  return content;
}

function coerce(name: string, f: Field, value: unknown): unknown {
  const bad = (what: string) =>
    new TypeError(`field "${name}" takes ${what}, got ${JSON.stringify(value)}`);
  const choices = choicesOf(f);
  if (f.type === "array") {
    const list = Array.isArray(value) ? value : String(value).split(",").map((s) => s.trim());
    if (choices && list.some((v) => !choices.includes(v))) {
      throw bad(`some of ${choices.map((c) => JSON.stringify(c)).join(", ")}`);
    }
    return list;
  }
  if (f.type === "boolean") {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "yes") return true;
    if (value === "false" || value === "no") return false;
    throw bad("true or false");
  }
  if (f.type === "integer" || f.type === "number") {
    const n = typeof value === "number" ? value : Number(value);
    if (!Number.isFinite(n) || (f.type === "integer" && !Number.isInteger(n))) {
      throw bad(f.type === "integer" ? "an integer" : "a number");
    }
    if ((f.minimum !== undefined && n < f.minimum) || (f.maximum !== undefined && n > f.maximum)) {
      throw bad(`a number in ${f.minimum ?? ""}..${f.maximum ?? ""}`);
    }
    return n;
  }
  const text = typeof value === "string" ? value : String(value);
  if (choices && !choices.includes(text)) {
    throw bad(`one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`);
  }
  return text;
}

/**
 * A sampling answer as the MCP `CreateMessageResult`: `{ role?, content,
 * model? }` (content a block or text) or `text=…`; a missing role is
 * `assistant` and a missing model `mcpx-answer` (spec 000, "Sampling").
 * @throws {TypeError} when there is no content.
 */
export function samplingResult(given: Record<string, unknown>): Record<string, unknown> {
  const content = typeof given.content === "string"
    ? { type: "text", text: given.content }
    : given.content ??
      (typeof given.text === "string" ? { type: "text", text: given.text } : undefined);
  if (typeof content !== "object" || content === null) {
    throw new TypeError(
      'a sampling answer needs content: text=… or JSON {"content":{"type":"text","text":"…"}}',
    );
  }
  return {
    role: typeof given.role === "string" ? given.role : "assistant",
    content,
    model: typeof given.model === "string" ? given.model : "mcpx-answer",
    ...(typeof given.stopReason === "string" ? { stopReason: given.stopReason } : {}),
  };
}

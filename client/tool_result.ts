/**
 * A tool's result as a script sees it: the MCP `CallToolResult` envelope
 * unwrapped into parsed JSON, a `String` or the envelope, each carrying the
 * envelope as a non-enumerable `.raw` (decision 0004, "Text results are String
 * objects carrying .raw"), and {@link ToolError} for a result that is an error.
 *
 * @module
 */

/** A tool answered with `isError: true`; `message` is the tool's own text. */
export class ToolError extends Error {
  /** Server name as configured (`chrome-devtools`). */
  server: string;
  /** Namespace identifier (`chrome_devtools`). */
  namespace: string;
  /** The tool as it was called. */
  tool: string;
  /** The whole MCP `CallToolResult` envelope. */
  raw: unknown;

  /**
   * A tool's error result, with the names it was called by.
   *
   * @param server Server name as configured.
   * @param namespace Namespace identifier.
   * @param tool The tool as it was called.
   * @param raw The whole `CallToolResult` envelope.
   * @param message The tool's own text.
   */
  constructor(
    server: string,
    namespace: string,
    tool: string,
    raw: unknown,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
    this.server = server;
    this.namespace = namespace;
    this.tool = tool;
    this.raw = raw;
  }
}

function attachRaw<T extends object>(value: T, raw: unknown): T {
  try {
    Object.defineProperty(value, "raw", {
      value: raw,
      enumerable: false,
      writable: true,
      configurable: true,
    });
  } catch { /* frozen: the value is still right, only .raw is missing */ }
  return value;
}

/**
 * Turns a `CallToolResult` into what a script wants (decision 0004, "Text
 * results are String objects carrying .raw"):
 *
 * | result | returns |
 * | --- | --- |
 * | `isError: true` | throws {@link ToolError} |
 * | `structuredContent` | that object, non-enumerable `.raw` |
 * | text parsing as a JSON object/array | the parsed value, non-enumerable `.raw` |
 * | text parsing as a number, boolean or null | the primitive (no `.raw`) |
 * | other text | a `String` object with non-enumerable `.raw` |
 * | anything else (images, …) | the envelope, whose `.raw` is itself |
 *
 * Several text blocks are joined with `\n` first.
 *
 * @param raw The envelope.
 * @param where Names for the {@link ToolError} (server, namespace, tool).
 * @returns The unwrapped value.
 * @throws {ToolError} when the result is an error.
 * @example
 * ```ts
 * import { rawOf, unwrapResult } from "./tool_result.ts";
 * const envelope = { content: [{ type: "text", text: '{"n":1}' }] };
 * const value = unwrapResult(envelope) as { n: number };
 * if (value.n !== 1 || rawOf(value) !== envelope) throw new Error();
 * ```
 */
export function unwrapResult(
  raw: unknown,
  where: { server?: string; namespace?: string; tool?: string } = {},
): unknown {
  const envelope = (raw ?? {}) as {
    isError?: boolean;
    structuredContent?: unknown;
    content?: { type?: string; text?: string }[];
  };
  const content = Array.isArray(envelope.content) ? envelope.content : [];
  const allText = content.length > 0 && content.every((b) => b?.type === "text");
  if (envelope.isError) {
    const text = content.filter((b) => b?.type === "text").map((b) => b.text ?? "").join("\n");
    throw new ToolError(
      where.server ?? "",
      where.namespace ?? "",
      where.tool ?? "",
      raw,
      text || `${where.namespace ?? "?"}.${where.tool ?? "?"} reported an error without a message`,
    );
  }
  const structured = envelope.structuredContent;
  if (structured !== undefined && structured !== null) {
    return typeof structured === "object" ? attachRaw(structured, raw) : structured;
  }
  if (allText) {
    const text = content.map((b) => b.text ?? "").join("\n");
    const parsed = parseJsonText(text);
    if (parsed !== NOT_JSON) {
      if (typeof parsed === "object" && parsed !== null) return attachRaw(parsed, raw);
      if (typeof parsed === "string") return attachRaw(new String(parsed), raw);
      return parsed;
    }
    return attachRaw(new String(text), raw);
  }
  if (typeof raw === "object" && raw !== null) return attachRaw(raw, raw);
  return raw;
}

const NOT_JSON = Symbol("not JSON");

/** JSON.parse when the text could be JSON at all (no exception for prose). */
function parseJsonText(text: string): unknown {
  const first = text.trimStart()[0];
  if (first === undefined || !'{["-0123456789tfn'.includes(first)) return NOT_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/**
 * The MCP envelope an unwrapped result came from.
 *
 * @param value A value returned by a tool call.
 * @returns Its `.raw`, or undefined for primitives (numbers, booleans, null)
 *   and values that did not come from a call.
 */
export function rawOf(value: unknown): unknown {
  if ((typeof value === "object" && value !== null) || typeof value === "function") {
    return (value as { raw?: unknown }).raw;
  }
  return undefined;
}

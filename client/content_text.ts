/**
 * MCP content blocks as text for a person or an agent: text as text, binary
 * content (images, audio, blobs) described by type and size rather than
 * dumped, since a megabyte of base64 in a context window is what mcpx exists
 * to prevent. `mcpx call` (cli/call/render_result.ts) and the value a script's run
 * prints (client/script_runtime.ts, inlined by client/bundle.ts, so this
 * module imports nothing) describe alike; each says where the data is instead.
 *
 * @module
 */

/** A content block of a `CallToolResult` (MCP 2025-11-25), loosely typed. */
export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

/** Size of base64 `data` in bytes, decoded. */
function decodedBytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function humanBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * One content block as a line (or lines) of text.
 *
 * @param block The block.
 * @param dataHint Where the undescribed bytes can be had, ending the
 *   description of binary content (default: `mcpx call --raw`'s words).
 * @returns Text, or `[image: image/png, 2.9 KiB; <dataHint>]` for binary content.
 * @example
 * ```ts
 * import { describeBlock } from "./content_text.ts";
 * const line = describeBlock({ type: "image", mimeType: "image/png", data: "aGVsbG8=" }, "raw");
 * if (line !== "[image: image/png, 5 bytes; raw]") throw new Error(line);
 * ```
 */
export function describeBlock(
  block: ContentBlock,
  dataHint = "`mcpx call --raw` prints the data",
): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType ?? "unknown type"}, ${
        humanBytes(decodedBytes(block.data ?? ""))
      }; ${dataHint}]`;
    case "resource_link":
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource": {
      const r = block.resource ?? {};
      if (typeof r.text === "string") return r.text;
      return `[resource ${r.uri ?? ""}: ${r.mimeType ?? "binary"}, ${
        humanBytes(decodedBytes(r.blob ?? ""))
      }; ${dataHint}]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

/**
 * True for a content block whose bytes {@link describeBlock} would describe
 * rather than print: an `image` or `audio` block with string `data`, or a
 * `resource` block with a string `blob`.
 *
 * @param value Anything.
 * @returns Whether `value` is such a block.
 */
export function isBinaryBlock(value: unknown): value is ContentBlock {
  if (typeof value !== "object" || value === null) return false;
  const block = value as ContentBlock;
  if ((block.type === "image" || block.type === "audio") && typeof block.data === "string") {
    return true;
  }
  return block.type === "resource" && typeof block.resource?.blob === "string";
}

/**
 * A tool's whole result envelope as `mcpx call` prints it, one block per line,
 * when `value` is one a script holds: a result that is neither text nor
 * structured, which the generated client returns as the envelope itself
 * (its `.raw` is itself; client/tool_result.ts `unwrapResult`).
 *
 * @param value A value a script printed.
 * @param dataHint Passed to {@link describeBlock} for binary blocks.
 * @returns The text, or undefined when `value` is not such an envelope.
 * @example
 * ```ts
 * import { envelopeText } from "./content_text.ts";
 * const envelope: Record<string, unknown> = { content: [{ type: "text", text: "hi" }] };
 * envelope.raw = envelope;
 * if (envelopeText(envelope, "") !== "hi" || envelopeText({}, "") !== undefined) throw new Error();
 * ```
 */
export function envelopeText(value: unknown, dataHint: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const envelope = value as { raw?: unknown; content?: unknown };
  if (envelope.raw !== value || !Array.isArray(envelope.content)) return undefined;
  return envelope.content.map((block) =>
    typeof block === "object" && block !== null && typeof block.type === "string"
      ? describeBlock(block, dataHint)
      : JSON.stringify(block)
  ).join("\n");
}

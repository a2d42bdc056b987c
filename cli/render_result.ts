/**
 * How `mcpx call` shows a tool's result to a person or an agent: text as
 * text, structured output as JSON, binary content described rather than
 * dumped (a megabyte of base64 in a context window is what mcpx exists to
 * prevent).
 *
 * @module
 */

/** A content block of a `CallToolResult` (MCP 2025-11-25), loosely typed. */
interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

/** The parts of a `CallToolResult` rendering reads. */
export interface CallResult {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
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

/** One content block as a line (or lines) of text. */
export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType ?? "unknown type"}, ${
        humanBytes(decodedBytes(block.data ?? ""))
      }; \`mcpx call --raw\` prints the data]`;
    case "resource_link":
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource": {
      const r = block.resource ?? {};
      if (typeof r.text === "string") return r.text;
      return `[resource ${r.uri ?? ""}: ${r.mimeType ?? "binary"}, ${
        humanBytes(decodedBytes(r.blob ?? ""))
      }]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

/**
 * The text `mcpx call` prints for a result: `structuredContent` as indented
 * JSON when present, else every content block described, one per line.
 */
export function renderResult(result: CallResult): string {
  if (result.structuredContent !== undefined && !result.isError) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return (result.content ?? []).map(describeBlock).join("\n");
}

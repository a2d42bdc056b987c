/**
 * How `mcpx call` shows a tool's result to a person or an agent: text as
 * text, structured output as JSON, binary content described rather than
 * dumped (a megabyte of base64 in a context window is what mcpx exists to
 * prevent).
 *
 * The blocks are described by client/content_text.ts, which a script's
 * printed value shares.
 *
 * @module
 */

import { type ContentBlock, describeBlock } from "../../client/content_text.ts";

/** The parts of a `CallToolResult` rendering reads. */
export interface CallResult {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * The text `mcpx call` prints for a result: `structuredContent` as indented
 * JSON when present, else every content block described, one per line.
 */
export function renderResult(result: CallResult): string {
  if (result.structuredContent !== undefined && !result.isError) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return (result.content ?? []).map((block) => describeBlock(block)).join("\n");
}

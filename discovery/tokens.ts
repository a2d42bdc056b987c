/**
 * Token counting for context budgets (`mcpx catalog --budget`).
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * A conservative, dependency-free estimate of how many model tokens `text`
 * costs: `Math.ceil(utf8Bytes / 3)`.
 *
 * Why this method: TypeScript declarations and English prose tokenize at
 * roughly 3–4 UTF-8 bytes per token under the cl100k and o200k BPE
 * vocabularies, and non-ASCII text at about as many bytes per token or more,
 * so dividing the byte length by 3 over-counts. A block kept within a budget
 * by this count therefore stays within it under those tokenizers; the cost is
 * showing somewhat less than would really fit. No tokenizer is loaded, so the
 * count takes microseconds.
 *
 * @param text Any string.
 * @returns Estimated tokens (≥ 0; 0 only for the empty string).
 * @example
 * ```ts
 * import { countTokens } from "./tokens.ts";
 * if (countTokens("abcdef") !== 2) throw new Error();
 * ```
 */
export function countTokens(text: string): number {
  return Math.ceil(encoder.encode(text).length / 3);
}

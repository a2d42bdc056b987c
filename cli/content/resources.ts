/**
 * `mcpx resources [namespace [uri [key=value…]]] [--out FILE]`: the resources
 * and resource templates servers publish, or one read (spec 000, "The half of
 * MCP that is not tools"). A template's URI takes `key=value` for its
 * variables, expanded in the daemon (engine/named_arguments.ts). Text is
 * printed; binary content is described (mime type, size in bytes) and its
 * exact bytes are written only with `--out FILE`, since base64 in a model's
 * context is what mcpx exists to prevent (decision 0032). `--json` prints the
 * listing, or the server's whole `ReadResourceResult`.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { renderTable, truncate } from "../table.ts";
import { contentFields } from "./content_request.ts";
import { completeArgument, completionText } from "./complete_argument.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";
import type { Completion } from "../../engine/complete.ts";
import { McpxError, UsageError } from "../../core/errors.ts";
import { parseKeyValues } from "../../core/key_values.ts";
import { isAbsolute, join } from "../../core/posix_path.ts";
import type { ResourcesOf } from "../../engine/content.ts";
import type { InputOf } from "../../ops/op.ts";
import type { resources } from "../../ops/content_ops.ts";

/** One entry of a `ReadResourceResult`'s `contents`. */
interface ResourceContent {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** What `mcpx resources` lists: each namespace's resources and templates, or why it could not list them. */
export interface ResourcesListing {
  namespaces: ResourcesOf[];
}

/** A read: the server's `ReadResourceResult`, or a directory's `{ pages }` (spec 002). */
export interface ResourceRead {
  contents?: ResourceContent[];
  pages?: Record<string, unknown>[];
  [key: string]: unknown;
}

/**
 * Runs `mcpx resources`: lists the resources, reads one (writing its bytes
 * with `--out`), or completes a template's variable (`--complete`).
 *
 * @returns `ok` with `{ namespaces }` (`failed` when a namespace could not
 *   list, its `error` set), the server's `ReadResourceResult` or a
 *   directory's `{ pages }`, or the server's completion; a note when
 *   `--out` replaced a file.
 * @throws {UsageError} For flags that do not go together, `--out` naming a
 *   directory or read with a directory's URI.
 * @throws {McpxError} `several-contents` when `--out` meets more than one
 *   content, `bad-blob` for a blob that is not base64.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof resources>,
): Promise<Answered<ResourcesListing | ResourceRead | Completion>> {
  const { namespace, uri, variables } = input;
  if (input.complete !== undefined) {
    if (uri === undefined) {
      throw new UsageError(
        `--complete completes a variable of one resource template: \`mcpx resources ${
          namespace ?? "<namespace>"
        } '<template>' --complete ${input.complete}\``,
      );
    }
    if (input.out !== undefined) throw new UsageError("--complete and --out do not go together");
    const ref = { type: "ref/resource" as const, uri };
    return ok(
      await completeArgument(ctx, namespace!, ref, input.complete, variables, input.timeout),
    );
  }
  if (uri !== undefined) return await read(ctx, namespace!, uri, variables, input);
  if (input.out !== undefined) {
    throw new UsageError(
      "--out writes a resource read: `mcpx resources <namespace> <uri> --out FILE`",
    );
  }
  const listed = await ctx.request<ResourcesOf[]>("resources", {
    ...(namespace !== undefined ? { namespace } : {}),
    ...await contentFields(ctx, input.timeout, namespace),
  });
  return (listed.some((ns) => ns.error) ? failed : ok)({ namespaces: listed });
}

/**
 * The terminal's rendering: the listing as a table (or why it is empty); a
 * read's text, binary content described; what `--out` wrote; a directory's
 * children as a table; a completion one value a line.
 */
export function text(value: ResourcesListing | ResourceRead | Completion, view: TextView): Text {
  const input = view.input as InputOf<typeof resources>;
  if (input.complete !== undefined) {
    return completionText(value as Completion, input.namespace!, input.complete);
  }
  if (input.uri === undefined) {
    return listingText((value as ResourcesListing).namespaces, input.namespace);
  }
  const result = value as ResourceRead;
  if (Array.isArray(result.pages)) return directoryText(input.uri, result.pages);
  const contents = result.contents ?? [];
  if (input.out !== undefined) {
    return `wrote ${bytesOf(contents[0]).length} bytes (${
      contents[0].mimeType ?? "no mime type"
    }) to ${input.out}\n`;
  }
  let out = "";
  for (const c of contents) {
    if (typeof c.text === "string") {
      out += c.text.endsWith("\n") || c.text === "" ? c.text : c.text + "\n";
    } else {
      out += `[binary ${c.uri ?? input.uri}: ${c.mimeType ?? "no mime type"}, ${
        bytesOf(c).length
      } bytes; --out FILE writes them]\n`;
    }
  }
  if (contents.length === 0) out += `${input.uri}: no contents\n`;
  return out;
}

/** Each namespace that could not list its resources, as an `error:` line, in either mode. */
export function errorLines(value: ResourcesListing | ResourceRead | Completion): string {
  const listed = (value as Partial<ResourcesListing>).namespaces;
  if (!Array.isArray(listed)) return "";
  return listed.filter((ns) => ns.error).map((ns) => `error: ${ns.namespace}: ${ns.error}\n`)
    .join("");
}

function listingText(listed: ResourcesOf[], namespace: string | undefined): string {
  const rows = listed.flatMap((ns) => [
    ...ns.resources.map((r) => [
      ns.namespace,
      r.uri,
      r.mimeType ?? "",
      truncate(r.description ?? r.title ?? r.name ?? "", 80),
    ]),
    ...ns.resourceTemplates.map((t) => [
      ns.namespace,
      t.uriTemplate,
      t.mimeType ?? "",
      truncate(`template: ${t.description ?? t.title ?? t.name ?? ""}`, 80),
    ]),
  ]);
  if (rows.length) {
    return renderTable(["NAMESPACE", "URI", "MIME", "DESCRIPTION"], rows) +
      "read one: mcpx resources <namespace> <uri>; a template takes its variables as " +
      "key=value after the URI\n";
  }
  if (listed.some((ns) => ns.error)) return "";
  return namespace !== undefined
    ? `${listed[0]?.namespace ?? namespace} publishes no resources\n`
    : `no resources in ${listed.length} namespaces\n`;
}

/**
 * Reads `uri` (a template's, with its variables): with `--out`, writes its
 * one content's exact bytes to the file, checked before the server is asked.
 */
async function read(
  ctx: CliContext,
  namespace: string,
  uri: string,
  words: string[],
  input: InputOf<typeof resources>,
): Promise<Answered<ResourceRead>> {
  const variables = parseKeyValues(words, "template variables");
  const out = input.out === undefined ? undefined : await outFile(ctx, input.out);
  const result = await ctx.request<ResourceRead>("resourceRead", {
    namespace,
    uri,
    ...(Object.keys(variables).length ? { variables } : {}),
    ...await contentFields(ctx, input.timeout, namespace),
  });
  if (Array.isArray(result.pages)) {
    if (out !== undefined) {
      throw new UsageError(`${uri} is a directory; --out writes one file: name a child's URI`);
    }
    return ok(result);
  }
  if (out === undefined) return ok(result);
  const contents = result.contents ?? [];
  if (contents.length !== 1) {
    throw new McpxError(
      "several-contents",
      `${uri} answered ${contents.length} contents and --out writes one; ` +
        "`mcpx --json resources …` prints them all",
    );
  }
  const bytes = bytesOf(contents[0]);
  await Deno.writeFile(out.path, bytes);
  return ok(
    result,
    out.existed !== undefined ? [`replaced ${input.out}, which held ${out.existed} bytes`] : [],
  );
}

/**
 * A directory's children (`resources/directory/read` pages, spec 002): a
 * table of the direct children.
 */
function directoryText(uri: string, pages: Record<string, unknown>[]): string {
  const children = pages.flatMap((p) => Array.isArray(p.resources) ? p.resources : [])
    .filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null);
  if (children.length === 0) return `${uri}: an empty directory\n`;
  const str = (v: unknown) => typeof v === "string" ? v : "";
  return renderTable(
    ["URI", "MIME", "DESCRIPTION"],
    children.map((c) => [
      str(c.uri),
      str(c.mimeType),
      truncate(str(c.description) || str(c.title) || str(c.name), 80),
    ]),
  );
}

/** A content's exact bytes: its base64 `blob` decoded, or its `text` as UTF-8. */
function bytesOf(content: ResourceContent): Uint8Array {
  if (typeof content.blob === "string") {
    try {
      return Uint8Array.fromBase64(content.blob);
    } catch (error) {
      throw new McpxError(
        "bad-blob",
        `${content.uri ?? "the resource"}: its blob is not base64 (${(error as Error).message})`,
      );
    }
  }
  return new TextEncoder().encode(content.text ?? "");
}

/**
 * Where `--out` writes, checked before the server is asked: a directory is
 * refused; an existing file is replaced, and its size is kept to say so.
 */
async function outFile(
  ctx: CliContext,
  given: string,
): Promise<{ path: string; existed?: number }> {
  if (given === "") throw new UsageError("--out needs a file name");
  const path = isAbsolute(given) ? given : join(ctx.cwd, given);
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) {
      throw new UsageError(
        `--out ${given} is a directory; name a file inside it, e.g. --out ${
          join(given, "resource.bin")
        }`,
      );
    }
    return { path, existed: info.size };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { path };
    throw error;
  }
}

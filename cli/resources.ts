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

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { contentFields } from "./content_request.ts";
import { completeArgument } from "./complete_argument.ts";
import { McpxError, UsageError } from "../core/errors.ts";
import { parseKeyValues } from "../core/key_values.ts";
import { isAbsolute, join } from "../core/posix_path.ts";
import type { ResourcesOf } from "../engine/content.ts";
import type { InputOf } from "../ops/op.ts";
import type { resources } from "../ops/content_ops.ts";

/** One entry of a `ReadResourceResult`'s `contents`. */
interface ResourceContent {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export async function run(ctx: CliContext, input: InputOf<typeof resources>): Promise<number> {
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
    return await completeArgument(ctx, namespace!, ref, input.complete, variables, input.timeout);
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
  if (await ctx.json()) {
    printJson(ctx.io, { namespaces: listed });
  } else {
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
      ctx.io.out(renderTable(["NAMESPACE", "URI", "MIME", "DESCRIPTION"], rows));
      ctx.io.out(
        "read one: mcpx resources <namespace> <uri>; a template takes its variables as " +
          "key=value after the URI\n",
      );
    } else if (!listed.some((ns) => ns.error)) {
      ctx.io.out(
        namespace !== undefined
          ? `${listed[0]?.namespace ?? namespace} publishes no resources\n`
          : `no resources in ${listed.length} namespaces\n`,
      );
    }
  }
  for (const ns of listed) if (ns.error) ctx.io.err(`error: ${ns.namespace}: ${ns.error}\n`);
  return listed.some((ns) => ns.error) ? 1 : 0;
}

async function read(
  ctx: CliContext,
  namespace: string,
  uri: string,
  words: string[],
  input: InputOf<typeof resources>,
): Promise<number> {
  const variables = parseKeyValues(words, "template variables");
  const out = input.out === undefined ? undefined : await outFile(ctx, input.out);
  const result = await ctx.request<{ contents?: ResourceContent[] }>("resourceRead", {
    namespace,
    uri,
    ...(Object.keys(variables).length ? { variables } : {}),
    ...await contentFields(ctx, input.timeout, namespace),
  });
  if (Array.isArray((result as { pages?: unknown }).pages)) {
    return directory(ctx, uri, (result as { pages: Record<string, unknown>[] }).pages, result, out);
  }
  const contents = result.contents ?? [];
  if (out !== undefined) {
    if (contents.length !== 1) {
      throw new McpxError(
        "several-contents",
        `${uri} answered ${contents.length} contents and --out writes one; ` +
          "`mcpx --json resources …` prints them all",
      );
    }
    const bytes = bytesOf(contents[0]);
    if (out.existed !== undefined) {
      ctx.io.err(`note: replaced ${input.out}, which held ${out.existed} bytes\n`);
    }
    await Deno.writeFile(out.path, bytes);
    if (await ctx.json()) printJson(ctx.io, result);
    else {
      ctx.io.out(
        `wrote ${bytes.length} bytes (${contents[0].mimeType ?? "no mime type"}) to ${input.out}\n`,
      );
    }
    return 0;
  }
  if (await ctx.json()) {
    printJson(ctx.io, result);
    return 0;
  }
  for (const c of contents) {
    if (typeof c.text === "string") {
      ctx.io.out(c.text.endsWith("\n") || c.text === "" ? c.text : c.text + "\n");
    } else {
      ctx.io.out(
        `[binary ${c.uri ?? uri}: ${c.mimeType ?? "no mime type"}, ${
          bytesOf(c).length
        } bytes; --out FILE writes them]\n`,
      );
    }
  }
  if (contents.length === 0) ctx.io.out(`${uri}: no contents\n`);
  return 0;
}

/**
 * A directory's children (`resources/directory/read` pages, spec 002): a
 * table of the direct children, or `--json` `{pages}` as the server sent them.
 */
async function directory(
  ctx: CliContext,
  uri: string,
  pages: Record<string, unknown>[],
  result: unknown,
  out: { path: string } | undefined,
): Promise<number> {
  if (out !== undefined) {
    throw new UsageError(`${uri} is a directory; --out writes one file: name a child's URI`);
  }
  if (await ctx.json()) {
    printJson(ctx.io, result);
    return 0;
  }
  const children = pages.flatMap((p) => Array.isArray(p.resources) ? p.resources : [])
    .filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null);
  if (children.length === 0) {
    ctx.io.out(`${uri}: an empty directory\n`);
    return 0;
  }
  const str = (v: unknown) => typeof v === "string" ? v : "";
  ctx.io.out(renderTable(
    ["URI", "MIME", "DESCRIPTION"],
    children.map((c) => [
      str(c.uri),
      str(c.mimeType),
      truncate(str(c.description) || str(c.title) || str(c.name), 80),
    ]),
  ));
  return 0;
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

/**
 * `mcpx api tools|call|serve`: OpenAPI documents as tools (ops/api_ops.ts,
 * decision 0053). `tools` and `call` read the document named by `--spec`
 * and run in this process (no daemon: nothing is pooled for a document
 * nobody declared); `serve` finds a declared API by name and serves it over
 * MCP stdio until its client leaves, which is how the daemon runs each
 * `paths.apis` entry.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { printJson } from "./json_out.ts";
import { readArguments } from "./call.ts";
import { renderTable, truncate } from "./table.ts";
import { type CallResult, renderResult } from "./render_result.ts";
import { UsageError } from "../core/errors.ts";
import { headerOf } from "../config/direct_target.ts";
import type { InputOf } from "../ops/op.ts";
import type { api } from "../ops/api_ops.ts";

type Input = InputOf<typeof api>;

/** @returns The exit code: 0, or 1 when the operation answered an HTTP error. */
export async function run(ctx: CliContext, input: Input): Promise<number> {
  switch (input.action) {
    case "tools":
      return await tools(ctx, input);
    case "call":
      return await call(ctx, input);
    case "serve":
      return await serve(ctx, input);
    default:
      throw new UsageError(
        `\`mcpx api\` takes tools, call or serve, got ${JSON.stringify(input.action ?? "")}; ` +
          `e.g. mcpx api tools --spec ./openapi.yaml`,
      );
  }
}

/** The operations of `--spec` that pass `--methods` and `--deprecated`. */
async function operations(ctx: CliContext, input: Input) {
  if (input.spec === undefined) {
    throw new UsageError(
      `\`mcpx api ${input.action}\` needs --spec <file|url>: the OpenAPI document to read`,
    );
  }
  const { documentLocation, loadDocument } = await import("../apis/document.ts");
  const { operationsOf, parseMethods } = await import("../apis/operations.ts");
  const loaded = await loadDocument(documentLocation(input.spec, ctx.cwd));
  const ops = operationsOf(
    loaded,
    { methods: parseMethods(input.methods), deprecated: input.deprecated === true },
    input.baseUrl,
  );
  return { loaded, ops };
}

async function tools(ctx: CliContext, input: Input): Promise<number> {
  if (input.rest.length > 0) {
    throw new UsageError(`\`mcpx api tools\` takes no words, got ${JSON.stringify(input.rest[0])}`);
  }
  const { loaded, ops } = await operations(ctx, input);
  const base = ops[0]?.baseUrl;
  if (await ctx.json()) {
    printJson(ctx.io, {
      spec: loaded.location.href,
      title: loaded.document.info.title,
      ...(typeof base === "string" ? { baseUrl: base } : base ? { problem: base.problem } : {}),
      tools: ops.map((o) => ({
        name: o.tool,
        ...(o.operationId !== undefined ? { operationId: o.operationId } : {}),
        method: o.method.toUpperCase(),
        path: o.path,
        description: o.description,
        deprecated: o.deprecated,
        inputSchema: o.inputSchema,
      })),
    });
    return 0;
  }
  const rows = ops.map((o) => [o.tool, o.method.toUpperCase(), o.path, truncate(summary(o), 60)]);
  ctx.io.out(renderTable(["TOOL", "METHOD", "PATH", "DESCRIPTION"], rows));
  if (ops.length === 0) {
    ctx.io.err(
      `note: no operation of ${loaded.document.info.title} passes the filter; --methods all ` +
        `offers every method, --deprecated the deprecated ones\n`,
    );
  }
  if (base !== undefined && typeof base !== "string") ctx.io.err(`note: ${base.problem}\n`);
  return 0;
}

/** The description without its `METHOD /path: ` head, which the table shows already. */
function summary(o: { description: string; method: string; path: string }): string {
  const head = `${o.method.toUpperCase()} ${o.path}`;
  const text = o.description.replace(`${head}: `, "").replace(head, "");
  return text.split("\n")[0];
}

async function call(ctx: CliContext, input: Input): Promise<number> {
  const [name, json, ...extra] = input.rest;
  if (name === undefined) {
    throw new UsageError(
      "name the operation: `mcpx api call <operationId> '{…}' --spec <file|url>` " +
        "(`mcpx api tools --spec …` lists them)",
    );
  }
  if (extra.length > 0) {
    throw new UsageError(
      `one JSON argument is expected, got ${extra.length + 1}; quote the JSON as one word`,
    );
  }
  const args = await readArguments(ctx, json);
  const { loaded, ops } = await operations(ctx, input);
  const op = ops.find((o) => o.tool === name) ?? ops.find((o) => o.operationId === name) ??
    ops.find((o) => o.tool.toLowerCase() === name.toLowerCase());
  if (!op) {
    // Named but filtered out: say which flag offers it.
    const { HTTP_METHODS, operationsOf } = await import("../apis/operations.ts");
    const every = operationsOf(loaded, { methods: HTTP_METHODS, deprecated: true });
    const hidden = every.find((o) => o.tool === name || o.operationId === name);
    throw new UsageError(
      hidden
        ? `${name} is ${hidden.method.toUpperCase()} ${hidden.path}${
          hidden.deprecated ? " (deprecated)" : ""
        }, which is not offered: add ${
          hidden.deprecated && !input.deprecated ? "--deprecated" : "--methods all"
        } to call it`
        : `the document has no operation ${JSON.stringify(name)}; offered: ${
          ops.map((o) => o.tool).join(", ") || "none"
        }`,
    );
  }
  const { callOperation } = await import("../apis/request.ts");
  const headers = Object.fromEntries((input.header ?? []).map(headerOf));
  const result = await callOperation(op, args, { headers }) as CallResult;
  if (input.raw || await ctx.json()) {
    printJson(ctx.io, result);
    return result.isError ? 1 : 0;
  }
  const text = renderResult(result);
  if (result.isError) {
    ctx.io.err(`${op.tool} returned an error:\n${text}\n`);
    return 1;
  }
  ctx.io.out(text.endsWith("\n") || text === "" ? text : text + "\n");
  return 0;
}

async function serve(ctx: CliContext, input: Input): Promise<number> {
  const [name, ...extra] = input.rest;
  if (name === undefined || extra.length > 0) {
    throw new UsageError(
      "`mcpx api serve` takes one declared API's name: `mcpx api serve <name> [--from <file>]`",
    );
  }
  const { findDeclaration } = await import("../config/derived_servers.ts");
  const { parsePathList } = await import("../config/setting_value.ts");
  const places = input.from !== undefined
    ? [input.from.startsWith("/") ? input.from : `${ctx.cwd}/${input.from}`]
    : parsePathList(String(await ctx.setting("paths.apis")));
  const found = await findDeclaration("apis", name, places);
  const { readApiDeclaration } = await import("../config/api_declaration.ts");
  const env = Deno.env.toObject();
  const declared = readApiDeclaration(found.item, found.file, found.index, env);
  // What a service echoes of its key is shown as `${VAR}`, as for a configured server.
  const { declarationSecrets } = await import("../config/secrets.ts");
  const { Redactor } = await import("../core/redact.ts");
  const redactor = new Redactor(declarationSecrets([found], env));
  const { documentLocation, loadDocument } = await import("../apis/document.ts");
  const { operationsOf, parseMethods } = await import("../apis/operations.ts");
  const loaded = await loadDocument(documentLocation(declared.spec, ctx.cwd));
  const ops = operationsOf(
    loaded,
    { methods: parseMethods(declared.methods), deprecated: declared.deprecated },
    declared.baseUrl,
  );
  const { serveApi } = await import("../apis/mcp_server.ts");
  const description = loaded.document.info as { description?: unknown };
  await serveApi(
    name,
    ops,
    {
      headers: declared.headers,
      redactor,
      ...(declared.auth ? { auth: declared.auth } : {}),
      ...(declared.timeoutMs ? { timeoutMs: declared.timeoutMs } : {}),
    },
    typeof description.description === "string" ? description.description : undefined,
  );
  return 0;
}

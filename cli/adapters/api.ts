/**
 * `mcpx api tools|call|serve`: OpenAPI documents as tools (ops/api_ops.ts,
 * decision 0053). `tools` and `call` read the document named by `--spec`
 * and run in this process (no daemon: nothing is pooled for a document
 * nobody declared); `serve` finds a declared API by name and serves it over
 * MCP stdio until its client leaves, which is how the daemon runs each
 * `paths.apis` entry.
 *
 * `tools` and `call` answer documents (decision 0064); `serve` is MCP over
 * stdio, a stream it writes itself, and ends `exited(0)`.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { readJsonObject } from "../syntax_fields.ts";
import { renderTable, truncate } from "../table.ts";
import { type CallResult, renderResult } from "../call/render_result.ts";
import { UsageError } from "../../core/errors.ts";
import { headerOf } from "../../config/direct_target.ts";
import type { InputOf } from "../../ops/op.ts";
import type { api } from "../../ops/api_ops.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, exited, failed, ok, type Outcome } from "../../ops/outcome.ts";

type Input = InputOf<typeof api>;

/** One offered operation as `api tools` lists it. */
export interface ApiTool {
  name: string;
  operationId?: string;
  /** Upper case (`GET`). */
  method: string;
  path: string;
  description: string;
  deprecated: boolean;
  inputSchema: unknown;
}

/** What `api tools` answers: the document's location and title, its base URL (or why none), its tools. */
export interface ApiToolsOutput {
  spec: string;
  title: string;
  baseUrl?: string;
  problem?: string;
  tools: ApiTool[];
}

/**
 * Answers `mcpx api tools|call|serve`.
 *
 * @returns `tools`: {@link ApiToolsOutput}; `call`: the MCP result, `failed`
 *   (exit 1) when the operation answered an HTTP error; `serve`: `exited(0)`
 *   once its client left.
 * @throws {UsageError} For a missing action, `--spec`, operation or argument.
 */
export async function handle(ctx: CliContext, input: Input): Promise<Outcome> {
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
  const { documentLocation, loadDocument } = await import("../../apis/document.ts");
  const { operationsOf, parseMethods } = await import("../../apis/operations.ts");
  const loaded = await loadDocument(documentLocation(input.spec, ctx.cwd));
  const ops = operationsOf(
    loaded,
    { methods: parseMethods(input.methods), deprecated: input.deprecated === true },
    input.baseUrl,
  );
  return { loaded, ops };
}

async function tools(ctx: CliContext, input: Input): Promise<Answered<ApiToolsOutput>> {
  if (input.rest.length > 0) {
    throw new UsageError(`\`mcpx api tools\` takes no words, got ${JSON.stringify(input.rest[0])}`);
  }
  const { loaded, ops } = await operations(ctx, input);
  const base = ops[0]?.baseUrl;
  return ok({
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
}

/**
 * The terminal's rendering: `tools` as a table, with notes on stderr when
 * nothing passes the filter or the base URL is missing (the `--json` document
 * says the latter as `problem`); `call` as `mcpx call` prints a result (`--raw`,
 * the whole result as JSON).
 */
export function text(value: ApiToolsOutput | CallResult, view: TextView): Text {
  const input = view.input as Input;
  if (input.action === "tools") return toolsText(value as ApiToolsOutput);
  const result = value as CallResult;
  if (input.raw) return JSON.stringify(result, null, 2) + "\n";
  const text = renderResult(result);
  if (result.isError) {
    const { tool } = (view.extra ?? {}) as { tool?: string };
    return { err: `${tool} returned an error:\n${text}\n` };
  }
  return text.endsWith("\n") || text === "" ? text : text + "\n";
}

function toolsText(output: ApiToolsOutput): Text {
  const rows = output.tools.map((
    t,
  ) => [t.name, t.method, t.path, truncate(summary(t), 60)]);
  let err = "";
  if (output.tools.length === 0) {
    err += `note: no operation of ${output.title} passes the filter; --methods all ` +
      `offers every method, --deprecated the deprecated ones\n`;
  }
  if (output.problem !== undefined) err += `note: ${output.problem}\n`;
  return { out: renderTable(["TOOL", "METHOD", "PATH", "DESCRIPTION"], rows), err };
}

/** The description without its `METHOD /path: ` head, which the table shows already. */
function summary(o: { description: string; method: string; path: string }): string {
  const head = `${o.method.toUpperCase()} ${o.path}`;
  const text = o.description.replace(`${head}: `, "").replace(head, "");
  return text.split("\n")[0];
}

async function call(ctx: CliContext, input: Input): Promise<Answered<CallResult>> {
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
  const args = await readJsonObject(ctx, json);
  const { loaded, ops } = await operations(ctx, input);
  const op = ops.find((o) => o.tool === name) ?? ops.find((o) => o.operationId === name) ??
    ops.find((o) => o.tool.toLowerCase() === name.toLowerCase());
  if (!op) {
    // Named but filtered out: say which flag offers it.
    const { HTTP_METHODS, operationsOf } = await import("../../apis/operations.ts");
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
  const { callOperation } = await import("../../apis/request.ts");
  const headers = Object.fromEntries((input.header ?? []).map(headerOf));
  const result = await callOperation(op, args, { headers }) as CallResult;
  const outcome = result.isError ? failed(result) : ok(result);
  return { ...outcome, extra: { tool: op.tool } };
}

async function serve(ctx: CliContext, input: Input): Promise<Outcome> {
  const [name, ...extra] = input.rest;
  if (name === undefined || extra.length > 0) {
    throw new UsageError(
      "`mcpx api serve` takes one declared API's name: `mcpx api serve <name> [--from <file>]`",
    );
  }
  const { findDeclaration } = await import("../../config/derived_servers.ts");
  const { parsePathList } = await import("../../config/setting_value.ts");
  const places = input.from !== undefined
    ? [input.from.startsWith("/") ? input.from : `${ctx.cwd}/${input.from}`]
    : parsePathList(String(await ctx.setting("paths.apis")));
  const found = await findDeclaration("apis", name, places);
  const { readApiDeclaration } = await import("../../config/api_declaration.ts");
  const env = Deno.env.toObject();
  const declared = readApiDeclaration(found.item, found.file, found.index, env);
  // What a service echoes of its key is shown as `${VAR}`, as for a configured server.
  const { declarationSecrets } = await import("../../config/secrets.ts");
  const { Redactor } = await import("../../core/redact.ts");
  const redactor = new Redactor(declarationSecrets([found], env));
  const { documentLocation, loadDocument } = await import("../../apis/document.ts");
  const { operationsOf, parseMethods } = await import("../../apis/operations.ts");
  const loaded = await loadDocument(documentLocation(declared.spec, ctx.cwd));
  const ops = operationsOf(
    loaded,
    { methods: parseMethods(declared.methods), deprecated: declared.deprecated },
    declared.baseUrl,
  );
  const { serveApi } = await import("../../apis/mcp_server.ts");
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
  return exited(0);
}

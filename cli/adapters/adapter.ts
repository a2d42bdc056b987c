/**
 * `mcpx adapter check [name…]` and `mcpx adapter serve <name>`: command-line
 * programs declared as servers (spec 000, "Command-line programs as
 * servers"; decision 0052). The declarations come from `--from FILE`, else
 * the places `paths.adapters` names (config/derived_servers.ts).
 *
 * `check` answers `{ adapters }` (decision 0064); `serve` is MCP over stdio
 * until its client leaves, a stream it writes itself, and ends `exited`.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { InputOf } from "../../ops/op.ts";
import type { adapter } from "../../ops/adapter_ops.ts";
import { ConfigError, McpxError, UsageError } from "../../core/errors.ts";
import {
  type Declaration,
  declarationClashes,
  declarationFiles,
  findDeclaration,
  readDeclarations,
} from "../../config/derived_servers.ts";
import { type Adapter, parseAdapter } from "../../config/adapter.ts";
import { isAbsolute, join, resolve } from "../../core/posix_path.ts";
import { parsePathList } from "../../config/setting_value.ts";
import { renderTable } from "../table.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, exited, failed, ok, type Outcome } from "../../ops/outcome.ts";

/**
 * Answers `mcpx adapter check|serve`.
 *
 * @returns `check`: `{ adapters }`, `failed` (exit 1) when one is not
 *   installed or has a problem; `serve`: `exited` with the server's code.
 * @throws {UsageError} For a missing or unknown verb, or a name not declared.
 * @throws {McpxError} `config` when no adapters are declared.
 */
export async function handle(ctx: CliContext, input: InputOf<typeof adapter>): Promise<Outcome> {
  const [verb, ...names] = input.words;
  const places = await placesOf(ctx, input.from);
  if (verb === "serve") {
    if (names.length !== 1) {
      throw new UsageError(`adapter serve takes one adapter's name, got ${names.length}`);
    }
    const declared = parseAdapter(await findDeclaration("adapters", names[0], places));
    const { serveAdapter } = await import(new URL("./adapter_serve.ts", import.meta.url).href);
    return exited(await serveAdapter(ctx, declared));
  }
  if (verb === "check") {
    return await check(ctx, names, places, input.from !== undefined ? "--from" : "paths.adapters");
  }
  throw new UsageError(
    verb === undefined
      ? "adapter needs check or serve: `mcpx adapter check` or `mcpx adapter serve <name>`"
      : `adapter takes check or serve, got ${JSON.stringify(verb)}`,
  );
}

/** `--from FILE` (from the working directory), else the places of `paths.adapters`. */
async function placesOf(ctx: CliContext, from: string | undefined): Promise<(string | null)[]> {
  if (from !== undefined) return [isAbsolute(from) ? from : resolve(ctx.cwd, from)];
  return parsePathList(await ctx.setting("paths.adapters"));
}

/** One row of `adapter check`. */
export interface Row {
  name: string;
  file: string;
  command: string;
  path?: string;
  installed: boolean;
  tools: number;
  problem?: string;
}

/** What `adapter check` answers. */
export interface CheckOutput {
  adapters: Row[];
}

/** What only the terminal shows: per row, whether its declaration is invalid (not looked for). */
interface CheckExtra {
  invalid: boolean[];
}

async function check(
  ctx: CliContext,
  names: string[],
  places: (string | null)[],
  /** What named the places, for messages: `--from` or `paths.adapters`. */
  source: string,
): Promise<Answered<CheckOutput>> {
  if (places.every((p) => p === null)) {
    throw new McpxError(
      "config",
      "no adapters are declared: paths.adapters is empty; set it to a declaration file, e.g. " +
        `{ "paths": { "adapters": ["./adapters.json"] } } in the configuration, or pass --from FILE`,
    );
  }
  let declared: Declaration[] = await readDeclarations(
    "adapters",
    declarationFiles(places, source),
  );
  const clashes = await clashesOf(ctx, declared);
  if (names.length) {
    const missing = names.filter((n) => !declared.some((d) => d.name === n));
    if (missing.length) {
      throw new UsageError(
        `no adapter named ${missing.join(", ")}; declared: ${
          declared.map((d) => d.name).join(", ") || "none"
        }`,
      );
    }
    declared = declared.filter((d) => names.includes(d.name));
  }
  const invalid = new Set<Row>();
  const rows = declared.map((d) => {
    const row = rowOf(d, ctx, invalid);
    const clash = clashes.get(d);
    if (clash) row.problem = row.problem ? `${clash}; also ${row.problem}` : clash;
    return row;
  });
  const outcome = rows.every((r) => r.installed && !r.problem)
    ? ok({ adapters: rows })
    : failed({ adapters: rows });
  const extra: CheckExtra = { invalid: rows.map((r) => invalid.has(r)) };
  return { ...outcome, extra };
}

/** `adapter check`'s table on stdout, each problem on stderr. */
export function text(value: CheckOutput, view: TextView): Text {
  const { invalid = [] } = (view.extra ?? {}) as Partial<CheckExtra>;
  // FOUND: where the program is, else why not (a declaration that is not valid was not looked for).
  const found = (r: Row, i: number) => r.path ?? (invalid[i] ? "invalid" : "not installed");
  const rows = value.adapters;
  return {
    out: renderTable(
      ["NAME", "PROGRAM", "FOUND", "TOOLS"],
      rows.map((r, i) => [r.name, r.command, found(r, i), String(r.tools)]),
    ),
    err: rows.filter((r) => r.problem).map((r) => `${r.name}: ${r.problem}\n`).join(""),
  };
}

/**
 * Each declared adapter whose name a configured server (or an earlier adapter)
 * has, with the message every command would fail with once it is declared
 * (config/derived_servers.ts). A configuration that cannot be read is not
 * this command's to report: the clash check then covers the adapters alone.
 */
async function clashesOf(
  ctx: CliContext,
  declared: Declaration[],
): Promise<Map<Declaration, string>> {
  let config: { path: string | null; servers: { name: string; namespace: string }[] };
  try {
    config = await ctx.loadedConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    config = { path: null, servers: [] };
  }
  return new Map(
    declarationClashes(config, declared).map((c) => [c.declaration, c.error.message]),
  );
}

function rowOf(d: Declaration, ctx: CliContext, invalid: Set<Row>): Row {
  const { invalid: bad, ...row } = adapterRow(d, ctx.env.PATH ?? "");
  if (bad) invalid.add(row);
  return row;
}

/**
 * One declared adapter checked: valid, and its program installed.
 *
 * @param d The declared item.
 * @param path The `PATH` to look the program up on.
 * @returns The row; `problem` says what is wrong and what to do, `invalid` when the declaration
 *   itself is (then the program was not looked for).
 */
export function adapterRow(d: Declaration, path: string): Row & { invalid?: true } {
  let parsed: Adapter;
  try {
    parsed = parseAdapter(d);
  } catch (error) {
    return {
      name: d.name,
      file: d.file,
      command: typeof d.item.command === "string" ? d.item.command : "",
      installed: false,
      tools: Array.isArray(d.item.tools) ? d.item.tools.length : 0,
      problem: (error as Error).message,
      invalid: true,
    };
  }
  const found = findProgram(parsed.command, path);
  return {
    name: d.name,
    file: d.file,
    command: parsed.command,
    ...(found ? { path: found } : {}),
    installed: found !== undefined,
    tools: parsed.tools.length,
    ...(found ? {} : {
      problem: `${parsed.command} is not installed${
        parsed.command.includes("/") ? "" : " (not found on PATH)"
      }; install it or fix "command" in ${d.file}`,
    }),
  };
}

/**
 * Where `command` runs from: itself when it names a path, else the first
 * executable file of that name in a `PATH` directory.
 *
 * @param command A program name or an absolute path.
 * @param path The `PATH` value (`:`-separated; empty entries skipped).
 * @returns The absolute path, or undefined when none is an executable file.
 */
export function findProgram(command: string, path: string): string | undefined {
  const candidates = command.includes("/")
    ? [command]
    : path.split(":").filter((d) => d !== "").map((d) => join(d, command));
  for (const candidate of candidates) {
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch { /* not there */ }
  }
  return undefined;
}

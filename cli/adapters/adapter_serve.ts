/**
 * `mcpx adapter serve <name>`: one declared adapter as an MCP server over
 * stdio, built on the SDK's server (decision 0052). `tools/list` answers the
 * declared tools, their input schemas typed from the parameters
 * (config/adapter.ts); `tools/call` runs the program once with the argv the
 * declaration and the arguments make, without a shell, in this process's
 * working directory (the one the daemon started it in), and answers its exit
 * code, stdout and stderr. A non-zero exit is a result, not an error: the
 * program ran and said something (spec 000, "Command-line programs as
 * servers"). A request cancelled (or timed out by the daemon) kills it.
 *
 * @module
 */

import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import type { CliContext } from "../context.ts";
import {
  type Adapter,
  ADAPTER_OUTPUT_SCHEMA,
  adapterArgv,
  type AdapterTool,
  toolInputSchema,
} from "../../config/adapter.ts";
import { VERSION } from "../../core/version.ts";

/** The most bytes of stdout, and of stderr, one call keeps; the rest is dropped and said so. */
export const OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;

/** The structured result of one run. */
export interface AdapterRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Serves `adapter` over stdio until the client closes stdin.
 *
 * @returns 0 once the client has gone.
 */
export async function serveAdapter(ctx: CliContext, adapter: Adapter): Promise<number> {
  const { serveStdio, StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  const { promise: closed, resolve } = Promise.withResolvers<void>();
  class Transport extends StdioServerTransport {
    override async close(): Promise<void> {
      await super.close();
      resolve();
    }
  }
  const handle = serveStdio(() => adapterServer(adapter, ctx.env), {
    transport: new Transport(),
    onerror: (error) => ctx.io.err(`mcpx adapter serve ${adapter.name}: ${error.message}\n`),
  });
  await closed;
  await handle.close();
  return 0;
}

/**
 * The MCP server of one adapter (tools only).
 *
 * @param adapter The validated declaration.
 * @param env The environment its program runs with.
 */
export function adapterServer(adapter: Adapter, env: Record<string, string>): Server {
  const server = new Server(
    { name: `mcpx-adapter-${adapter.name}`, version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      ...(adapter.description ? { instructions: adapter.description } : {}),
    },
  );
  const byName = new Map(adapter.tools.map((t) => [t.name, t]));
  server.setRequestHandler("tools/list", () => ({
    tools: adapter.tools.map((tool) => ({
      name: tool.name,
      description: describeTool(adapter, tool),
      inputSchema: toolInputSchema(tool) as { type: "object" },
      outputSchema: ADAPTER_OUTPUT_SCHEMA as never,
    })),
  }));
  server.setRequestHandler("tools/call", async (request, sctx) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `adapter ${adapter.name} has no tool ${JSON.stringify(request.params.name)}; it has ${
          adapter.tools.map((t) => t.name).join(", ")
        }`,
      );
    }
    let argv: string[];
    try {
      argv = adapterArgv(tool, request.params.arguments ?? {});
    } catch (error) {
      // Bad arguments are the caller's to fix: a tool error it can read, not a protocol failure.
      return { content: [{ type: "text", text: (error as Error).message }], isError: true };
    }
    let run: AdapterRun;
    try {
      run = await runProgram(adapter.command, argv, env, sctx.mcpReq.signal);
    } catch (error) {
      if (sctx.mcpReq.signal.aborted) throw error;
      return {
        content: [{
          type: "text",
          text: `${adapter.command} could not run: ${(error as Error).message}; ` +
            "`mcpx adapter check` says whether it is installed",
        }],
        isError: true,
      };
    }
    return { content: [{ type: "text", text: textOf(run) }], structuredContent: { ...run } };
  });
  return server;
}

/** A tool's description: the declared one, then the command line it runs. */
function describeTool(adapter: Adapter, tool: AdapterTool): string {
  const line = [adapter.command.split("/").at(-1), ...tool.args].join(" ");
  return `${tool.description ? `${tool.description} ` : ""}(runs \`${line} …\`; a non-zero exit ` +
    "is a result: exitCode, stdout, stderr)";
}

/** The text content of a run: stdout, then the exit code and stderr when there is anything to say. */
function textOf(run: AdapterRun): string {
  let text = run.stdout;
  if (run.exitCode !== 0) {
    text += `${text && !text.endsWith("\n") ? "\n" : ""}exit code ${run.exitCode}\n`;
  }
  if (run.stderr) text += `${text && !text.endsWith("\n") ? "\n" : ""}stderr:\n${run.stderr}`;
  return text;
}

/**
 * Runs `command` with `args` (argv, no shell), stdin closed, collecting at
 * most {@link OUTPUT_LIMIT_BYTES} of each output stream.
 *
 * @throws {Deno.errors.NotFound} When the program is not installed; an `AbortError` when
 *   `signal` aborts (the child is killed).
 */
export async function runProgram(
  command: string,
  args: string[],
  env: Record<string, string>,
  signal?: AbortSignal,
): Promise<AdapterRun> {
  signal?.throwIfAborted();
  const child = new Deno.Command(command, {
    args,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal,
  }).spawn();
  const [stdout, stderr, status] = await Promise.all([
    collect(child.stdout),
    collect(child.stderr),
    child.status,
  ]);
  signal?.throwIfAborted();
  return {
    exitCode: status.signal ? 128 + signalNumber(status.signal) : status.code,
    stdout,
    stderr,
  };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let dropped = 0;
  for await (const chunk of stream) {
    const room = OUTPUT_LIMIT_BYTES - kept;
    if (room > 0) {
      chunks.push(chunk.subarray(0, room));
      kept += Math.min(room, chunk.length);
    }
    dropped += Math.max(0, chunk.length - Math.max(room, 0));
  }
  const bytes = new Uint8Array(kept);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  const text = new TextDecoder().decode(bytes);
  return dropped ? `${text}\n[mcpx: ${dropped} more bytes dropped]\n` : text;
}

function signalNumber(signal: Deno.Signal): number {
  const numbers: Partial<Record<Deno.Signal, number>> = {
    SIGHUP: 1,
    SIGINT: 2,
    SIGKILL: 9,
    SIGSEGV: 11,
    SIGPIPE: 13,
    SIGTERM: 15,
  };
  return numbers[signal] ?? 0;
}

/**
 * The module that renders each op on the command line, loaded only when its
 * command runs (so `mcpx ls` never pays for the MCP SDK or the type
 * generator). What each command takes is declared in the op table
 * (ops/table.ts); a test holds this map and the table to each other.
 *
 * @module
 */

import type { CliContext } from "./context.ts";

/** What a command module exports: run the op with its typed input; the exit code. */
export interface CommandModule {
  // deno-lint-ignore no-explicit-any
  run(ctx: CliContext, input: any): Promise<number>;
}

/** Each op name's command module. */
export const COMMAND_MODULES: Record<string, () => Promise<CommandModule>> = {
  ls: () => import("./ls.ts"),
  search: () => import("./search.ts"),
  types: () => import("./types.ts"),
  catalog: () => import("./catalog.ts"),
  schema: () => import("./schema.ts"),
  call: () => import("./call.ts"),
  tasks: () => import("./tasks.ts"),
  elicit: () => import("./elicit.ts"),
  prompts: () => import("./prompts.ts"),
  resources: () => import("./resources.ts"),
  skills: () => import("./skills.ts"),
  run: () => import("./run.ts"),
  exec: () => import("./exec.ts"),
  scripts: () => import("./scripts.ts"),
  client: () => import("./client.ts"),
  session: () => import("./session.ts"),
  status: () => import("./status.ts"),
  refresh: () => import("./refresh.ts"),
  restart: () => import("./restart.ts"),
  trust: () => import("./trust.ts"),
  untrust: async () => ({ run: (await import("./trust.ts")).untrust }),
  auth: () => import("./auth.ts"),
  config: () => import("./config_cmd.ts"),
  registry: () => import("./registry.ts"),
  import: () => import("./import_cmd.ts"),
  doctor: () => import("./doctor.ts"),
  // A computed specifier: a literal one would put the whole daemon (its routes, zod, the MCP
  // SDK, LogTape) in the module graph Deno reads before every command starts (decision 0021).
  daemon: () => import(new URL("./daemon_cmd.ts", import.meta.url).href),
  // Computed for the reason `daemon` is: serve loads the MCP server SDK.
  serve: () => import(new URL("./serve.ts", import.meta.url).href),
  adapter: () => import("./adapter.ts"),
  api: () => import("./api.ts"),
  daemons: () => import("./daemons.ts"),
  stop: () => import("./stop.ts"),
  log: () => import("./log.ts"),
  stats: () => import("./stats.ts"),
  completion: () => import("./completion.ts"),
  man: () => import("./man.ts"),
  openapi: () => import("./openapi.ts"),
  "completion-words": () => import("./completion_words.ts"),
};

/**
 * The module of the op `name`.
 *
 * @throws {Error} When the table has an op with a command and this map none
 *   (tests/parity_test.ts fails first).
 */
export function loadCommand(name: string): Promise<CommandModule> {
  const load = COMMAND_MODULES[name];
  if (!load) throw new Error(`no command module for the op ${name}`);
  return load();
}

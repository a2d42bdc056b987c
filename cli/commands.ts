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

/**
 * A loader of the command module `file` (relative to this folder), by a
 * computed specifier. Deno fetches the npm packages of every import it can
 * read before it runs anything, a literal `import("./types.ts")` that never
 * runs included; a literal here would make every command fetch every
 * command's packages (a first `mcpx stop` downloaded the type generator;
 * issue 24). Computed, a command loads what it uses. cli/load_graph_test.ts
 * holds this; `deno task compile` includes the folder for the same reason.
 */
function command(file: string): () => Promise<CommandModule> {
  return () => import(new URL(file, import.meta.url).href);
}

/** Each op name's command module. */
export const COMMAND_MODULES: Record<string, () => Promise<CommandModule>> = {
  ls: command("./ls.ts"),
  search: command("./search.ts"),
  types: command("./types.ts"),
  catalog: command("./catalog.ts"),
  schema: command("./schema.ts"),
  call: command("./call.ts"),
  tasks: command("./tasks.ts"),
  elicit: command("./elicit.ts"),
  prompts: command("./prompts.ts"),
  resources: command("./resources.ts"),
  skills: command("./skills.ts"),
  run: command("./run.ts"),
  exec: command("./exec.ts"),
  scripts: command("./scripts.ts"),
  client: command("./client.ts"),
  session: command("./session.ts"),
  status: command("./status.ts"),
  refresh: command("./refresh.ts"),
  restart: command("./restart.ts"),
  trust: command("./trust.ts"),
  untrust: async () => {
    const trust = await command("./trust.ts")() as CommandModule & {
      untrust: CommandModule["run"];
    };
    return { run: trust.untrust };
  },
  auth: command("./auth.ts"),
  config: command("./config_cmd.ts"),
  registry: command("./registry.ts"),
  import: command("./import_cmd.ts"),
  doctor: command("./doctor.ts"),
  daemon: command("./daemon_cmd.ts"),
  serve: command("./serve.ts"),
  adapter: command("./adapter.ts"),
  api: command("./api.ts"),
  daemons: command("./daemons.ts"),
  stop: command("./stop.ts"),
  log: command("./log.ts"),
  stats: command("./stats.ts"),
  completion: command("./completion.ts"),
  man: command("./man.ts"),
  openapi: command("./openapi.ts"),
  "completion-words": command("./completion_words.ts"),
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

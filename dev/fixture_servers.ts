/**
 * How one of our fixture servers (tests/fixtures/servers/) is declared in a
 * configuration, for the tests and the benches alike. The fixtures are named
 * here by their file path, a string in the entry: nothing here imports them,
 * so bench/ reaches nothing in tests/ through this module (issue 26).
 *
 * @module
 */

import { denoRunArgv, ROOT } from "./mcpx_argv.ts";

/** One of our fixture servers, by its file under tests/fixtures/servers/ without `.ts`. */
export type Fixture =
  | "misbehaving"
  | "stateful"
  | "echo_secret"
  | "escapes"
  | "big_result"
  | "hanging_http"
  | "odd_names"
  | "modern_only"
  | "dual"
  | "asks"
  | "changing"
  | "skills"
  | "guarded"
  | "notices"
  | "counter";

/**
 * argv that runs fixture server `fixture` (tests/fixtures/servers/<fixture>.ts)
 * with this checkout's deno.json, followed by `extraArgs`.
 */
export function fixtureArgv(fixture: Fixture, extraArgs: string[] = []): string[] {
  return denoRunArgv(ROOT, `tests/fixtures/servers/${fixture}.ts`, extraArgs);
}

/**
 * A server entry for `mcpServers` that starts one of our fixture servers over
 * stdio: by default tests/fixtures/servers/misbehaving.ts (echo, sleep, count,
 * hang, crash); `fixture: "stateful"` is stateful.ts (remember, recall, whoami);
 * `fixture: "echo_secret"` is echo_secret.ts (repeats its credentials everywhere);
 * `fixture: "escapes"` is escapes.ts (terminal control sequences in all it says).
 *
 * @param options `env` and `mcpx` go into the entry as given; `extraArgs` follow the script.
 */
export function fixtureServer(
  options: {
    env?: Record<string, string>;
    mcpx?: Record<string, unknown>;
    extraArgs?: string[];
    fixture?: Fixture;
  } = {},
): {
  command: string;
  args: string[];
  env?: Record<string, string>;
  mcpx?: Record<string, unknown>;
} {
  const [command, ...args] = fixtureArgv(options.fixture ?? "misbehaving", options.extraArgs);
  return {
    command,
    args,
    ...(options.env ? { env: options.env } : {}),
    ...(options.mcpx ? { mcpx: options.mcpx } : {}),
  };
}

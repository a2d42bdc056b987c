/**
 * One timed configuration load for bench/config_load.ts (private to bench/),
 * run in a process of its own so each load starts cold, as a CLI's does:
 * imports `config/load.ts` from the source tree given (this checkout or the
 * "before" revision) and prints one JSON line, `{ ms, servers, fingerprint }`.
 *
 * Usage: `deno run -A --config <root>/deno.json bench/_config_probe.ts <root>/ <file>`.
 *
 * @module
 */

const [root, file] = Deno.args;
const { loadConfig } = await import(`${root}config/load.ts`);
const started = performance.now();
const config = await loadConfig({ cwd: "/", env: {}, path: file });
const ms = performance.now() - started;
console.log(
  JSON.stringify({ ms, servers: config.servers.length, fingerprint: config.fingerprint }),
);

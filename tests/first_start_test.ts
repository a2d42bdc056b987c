/**
 * The first start on a fresh machine (issue 8): a server never listed gets
 * `firstStartTimeout`, a start that runs out of time is stopped with SIGTERM
 * and time to clean up, a broken npx cache folder is named with its fix, the
 * start-timeout error names its setting (as data: `bound`), and a terminal
 * shows what is starting.
 */
import assert from "node:assert/strict";
import { eventually, fixtureServer, mcpxArgv, SERVERS, STACK_LINE, world } from "./_helpers.ts";

/** The escape character, and the progress line's "erase this line" (CR, ESC [ K). */
const ESC = String.fromCharCode(27);
const ERASE = `\\r${ESC}\\[K`;

interface ErrorDoc {
  ok: false;
  error: { code: string; message: string; bound?: string; stderrTail?: string };
}

Deno.test("a server never listed gets firstStartTimeout; once listed, startTimeout applies and its error names the setting", async () => {
  await using w = await world();
  // Starts in 3 s: longer than startTimeout, well within firstStartTimeout.
  await w.writeConfig({
    mcpServers: {
      slow: fixtureServer({
        env: { MISBEHAVE_START_DELAY_MS: "3000" },
        mcpx: { startTimeout: "1s", firstStartTimeout: "2m" },
      }),
    },
  });
  // Discovery waits for a first start only when asked (decision 0010).
  const ls = await w.json(["ls", "--wait"]);
  assert.equal(ls.namespaces[0].state, "ready", JSON.stringify(ls.namespaces[0]));
  assert.equal(ls.namespaces[0].tools, 5);

  // Listed now: a new start has startTimeout (1 s), which 3 s exceeds.
  await w.mcpx(["restart", "slow"]);
  const call = await w.mcpx(["--json", "call", "slow.echo", '{"text":"x"}']);
  assert.equal(call.code, 1, call.stdout + call.stderr);
  const { error } = JSON.parse(call.stdout) as ErrorDoc;
  assert.equal(error.bound, "startTimeout");
  assert.match(
    error.message,
    /did not answer initialize within 1s \(startTimeout\); raise "startTimeout" in mcpServers\.slow\.mcpx, or in the top-level "pool" block/,
  );
});

Deno.test("a first start that runs out of time is stopped with SIGTERM and time to clean up, and names firstStartTimeout", async () => {
  await using w = await world();
  const marker = `${w.dir}/term-marker`;
  await w.writeConfig({
    mcpServers: {
      installing: fixtureServer({
        // Never answers within the allowance; on SIGTERM it works 3 s, like
        // npm rolling back an interrupted `npx -y` install, before it exits.
        env: {
          MISBEHAVE_START_DELAY_MS: "600000",
          MISBEHAVE_TERM_MARKER: marker,
          MISBEHAVE_TERM_CLEANUP_MS: "3000",
        },
        mcpx: { startTimeout: "1s", firstStartTimeout: "3s" },
      }),
    },
  });
  const call = await w.mcpx(["--json", "call", "installing.echo", '{"text":"x"}']);
  assert.equal(call.code, 1, call.stdout + call.stderr);
  const { error } = JSON.parse(call.stdout) as ErrorDoc;
  assert.equal(error.bound, "firstStartTimeout", error.message);
  assert.match(
    error.message,
    /within 3s of its first start, which includes a package runner such as npx downloading it \(firstStartTimeout\); raise "firstStartTimeout"/,
  );
  assert.ok(
    await eventually(() => readText(marker) === "term done", 15_000),
    `the server finished cleaning up after SIGTERM (marker: ${JSON.stringify(readText(marker))})`,
  );
});

Deno.test("a broken npx cache folder is named in the start error with the command that fixes it", async () => {
  const spec = "@modelcontextprotocol/server-memory@2026.8.31";
  const warm = `${Deno.env.get("npm_config_cache") ?? `${Deno.env.get("HOME")}/.npm`}`;
  const installed = npxFolderOf(warm, spec);
  if (!installed) {
    throw new Error(`no npx install of ${spec} under ${warm}/_npx: run .ci/run first`);
  }
  await using w = await world();
  // A cache whose npx folder lost its package.json, as a SIGKILL mid-install
  // leaves it; downloads come from the machine's cache, offline.
  const cache = `${w.dir}/npm-cache`;
  const hash = installed.slice(installed.lastIndexOf("/") + 1);
  await Deno.mkdir(`${cache}/_npx`, { recursive: true });
  await Deno.symlink(`${warm}/_cacache`, `${cache}/_cacache`);
  await copyDir(installed, `${cache}/_npx/${hash}`);
  await Deno.remove(`${cache}/_npx/${hash}/package.json`);
  const [command, ...args] = SERVERS.memory;
  await w.writeConfig({ mcpServers: { memory: { command, args } } });
  const env = { npm_config_cache: cache, npm_config_offline: "true" };

  const ls = await w.json(["ls"], { env });
  const row = ls.namespaces[0];
  assert.equal(row.state, "error", JSON.stringify(row));
  const folder = `${cache}/_npx/${hash}`;
  assert.match(row.error, /npx's install of the package in .* is incomplete/);
  assert.ok(row.error.includes(`rm -rf '${folder}'`), row.error);

  const call = await w.mcpx(["call", "memory.read_graph", "{}"], { env });
  assert.equal(call.code, 1);
  assert.ok(call.stderr.includes(`rm -rf '${folder}'`), call.stderr);
  assert.doesNotMatch(call.stderr, STACK_LINE);

  // The advice works: without the folder, npx installs it again (from the warm cache).
  await Deno.remove(folder, { recursive: true });
  await w.mcpx(["restart", "memory"], { env });
  const fixed = await w.mcpx(["call", "memory.read_graph", "{}"], { env });
  assert.equal(fixed.code, 0, fixed.stderr);
});

Deno.test("on a terminal, a command waiting for a start shows what is starting, then erases it", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { slow: fixtureServer({ env: { MISBEHAVE_START_DELAY_MS: "4000" } }) },
  });
  // `script` gives the CLI a pseudo-terminal, as a user's shell would.
  const line = mcpxArgv(["ls", "--wait"]).map((a) => `'${a}'`).join(" ");
  const out = await new Deno.Command("script", {
    args: ["-qec", line, "/dev/null"],
    env: { ...w.env, TERM: "xterm" },
    clearEnv: true,
    cwd: w.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text);
  assert.match(text, new RegExp(`${ERASE}starting slow: \\d+s of 5m…`), JSON.stringify(text));
  assert.match(text, /^slow\s+5\s/m, "the answer follows");

  // Not a terminal (a pipe, as an agent runs it): no progress and no control characters.
  await w.mcpx(["stop"]);
  await Deno.remove(`${w.dir}/.cache`, { recursive: true });
  const piped = await w.mcpx(["ls", "--wait"]);
  assert.equal(piped.code, 0, piped.stderr);
  assert.doesNotMatch(piped.stdout + piped.stderr, /starting slow/);
  assert.ok(!(piped.stdout + piped.stderr).includes(ESC), "no control characters");
});

/** The `_npx/<hash>` folder whose package.json installs `spec`, under npm cache `cache`. */
function npxFolderOf(cache: string, spec: string): string | undefined {
  try {
    for (const entry of Deno.readDirSync(`${cache}/_npx`)) {
      const folder = `${cache}/_npx/${entry.name}`;
      try {
        const pkg = JSON.parse(Deno.readTextFileSync(`${folder}/package.json`));
        if (pkg._npx?.packages?.includes(spec)) return folder;
      } catch { /* not an npx folder */ }
    }
  } catch { /* no npx cache */ }
  return undefined;
}

async function copyDir(from: string, to: string): Promise<void> {
  const { code, stderr } = await new Deno.Command("cp", { args: ["-a", from, to] }).output();
  if (code !== 0) throw new Error(new TextDecoder().decode(stderr));
}

function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

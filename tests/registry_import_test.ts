/**
 * `mcpx registry` against a registry on loopback serving answers of the
 * official API's shape (tests/fixtures/registry), and `mcpx import` from
 * every host's fixture files (tests/fixtures/hosts) copied into a world's
 * home and project: both add to a configuration file with comments, which
 * keeps them, and which mcpx then reads. Each `--json` document is parsed
 * with its op's output schema. One world, no server started.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parse } from "jsonc-parser";
import { world } from "./_helpers.ts";
import { fixtureRegistry } from "./fixtures/registry/serve.ts";
import { ImportOutput, RegistryOutput } from "../ops/reach_ops.ts";
import { loadConfig } from "../config/load.ts";

const HOSTS = fileURLToPath(new URL("./fixtures/hosts/", import.meta.url));

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

const CONFIG = `{
  // servers this project uses
  "mcpServers": {
    "notes": { "command": "notes-mcp" } // ours, not the registry's
  },
  "paths": { "adapters": ["./adapters.json"] }
}
`;

Deno.test("mcpx registry and mcpx import add servers to the configuration, keeping its comments", async () => {
  await using w = await world();
  await using registry = await fixtureRegistry();
  await copyTree(`${HOSTS}home`, w.dir);
  await copyTree(`${HOSTS}project`, `${w.dir}/project`);
  const cwd = `${w.dir}/project`;
  const config = `${cwd}/.mcpx.json`;
  await Deno.writeTextFile(config, CONFIG);
  await Deno.writeTextFile(
    `${cwd}/adapters.json`,
    JSON.stringify({ adapters: [{ name: "gitx", command: "git", tools: [{ name: "log" }] }] }),
  );
  const env = { MCPX_REGISTRY_URL: registry.url };
  const json = async (args: string[], code = 0) => {
    const r = await w.mcpx(["--json", ...args], { cwd, env });
    assert.equal(r.code, code, `mcpx ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  // search: the registry's substring match, each hit with what add would name it and run.
  const found = RegistryOutput.parse(await json(["registry", "search", "weather"]));
  assert.ok("servers" in found);
  assert.deepEqual(found.servers.map((s) => [s.name, s.namespace, s.via]), [
    ["io.github.example/weather-mcp", "weather_mcp", "package"],
  ]);
  assert.ok(registry.asked.some((a) => a.includes("version=latest")));

  // show by short name; a name that is not there is a not-found naming the search command.
  const shown = await w.mcpx(["registry", "show", "playwright-mcp"], { cwd, env });
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /runs: npm @playwright\/mcp@0\.0\.41 \(npx\)/);
  const missing = await w.mcpx(["registry", "show", "io.example/none"], { cwd, env });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /has no server named io\.example\/none.*mcpx registry search/);

  // add without --write: a preview, the file untouched.
  const preview = await w.mcpx(["registry", "add", "io.github.example/weather-mcp"], { cwd, env });
  assert.equal(preview.code, 0, preview.stderr);
  assert.match(preview.stdout, /\+\s+"weather_mcp": \{/);
  assert.match(preview.stdout, /set WEATHER_API_KEY \(secret\) for env WEATHER_API_KEY/);
  assert.match(preview.stderr, /a preview: nothing was written; add --write/);
  assert.equal(await Deno.readTextFile(config), CONFIG);

  // add --write: written after the existing entry, comments kept, reported as JSON.
  const added = RegistryOutput.parse(
    await json(["registry", "add", "io.github.example/weather-mcp", "--write"]),
  );
  assert.ok("write" in added && added.write?.written);
  assert.deepEqual(added.translation?.needs.map((n) => n.variable), ["WEATHER_API_KEY"]);
  const written = await Deno.readTextFile(config);
  assert.match(written, /\/\/ servers this project uses/);
  assert.match(written, /\/\/ ours, not the registry's/);
  const servers = (parse(written) as { mcpServers: Record<string, { args?: string[] }> })
    .mcpServers;
  assert.deepEqual(servers.weather_mcp.args, ["weather-mcp-server@0.5.0"]);

  // The same name again is refused, never overwritten; another goes in under --as (the
  // file's own "notes" keeps its name).
  const again = await w.mcpx(["registry", "add", "weather-mcp", "--write"], { cwd, env });
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already has a server named "weather_mcp".*\n.*--as/s);
  await json(["registry", "add", "com.example/notes", "--as", "hosted-notes", "--write"]);
  // A name a declared adapter holds is skipped too: written, it would stop every command.
  const declared = await w.mcpx(["registry", "add", "weather-mcp", "--as", "gitx", "--write"], {
    cwd,
    env,
  });
  assert.equal(declared.code, 1);
  assert.match(
    declared.stderr,
    /skipped gitx: its name is taken by the adapter "gitx" declared in/,
  );

  // import --list: every host's file, what translates and what does not.
  const listedText = await w.mcpx(["--json", "import", "--list"], { cwd, env });
  assert.equal(listedText.code, 0, listedText.stderr);
  assert.doesNotMatch(
    listedText.stdout,
    /BSA-literal-key/,
    "a literal key is shown as its reference",
  );
  const listed = ImportOutput.parse(JSON.parse(listedText.stdout));
  assert.equal(listed.write, undefined);
  const byHost = (host: string) => listed.files.filter((f) => f.host === host);
  assert.deepEqual(
    [...new Set(listed.files.map((f) => f.host))],
    ["claude-code", "claude-desktop", "cursor", "vscode", "windsurf", "codex", "opencode"],
  );
  const desktop = byHost("claude-desktop")[0].servers.find((s) => s.name === "brave")!;
  assert.deepEqual(desktop.entry?.env, { BRAVE_API_KEY: "${mcpServers.brave.env.BRAVE_API_KEY}" });
  const vscode = byHost("vscode").find((f) => f.scope === "project")!;
  assert.equal(vscode.servers.find((s) => s.name === "python-tool")!.entry, undefined);

  // import --write from two hosts into a project's file: a literal key from the user's Claude
  // Desktop file goes in as a reference to a variable the person is told to set, never the key.
  const imported = await w.mcpx(
    ["import", "--from", "claude-desktop", "--from", "codex", "--write"],
    { cwd, env },
  );
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /"BRAVE_API_KEY": "\$\{BRAVE_API_KEY\}"/);
  assert.match(imported.stderr, /set BRAVE_API_KEY for brave: its env BRAVE_API_KEY was a literal/);
  assert.doesNotMatch(imported.stdout + imported.stderr, /BSA-literal-key/);
  assert.doesNotMatch(await Deno.readTextFile(config), /BSA-literal-key/);
  assert.match(imported.stderr, /updated .*\.mcpx\.json: added filesystem, brave, context7/);
  assert.match(imported.stderr, /codex context7: "env_vars" is not translated|context7/);
  const after = parse(await Deno.readTextFile(config)) as { mcpServers: Record<string, unknown> };
  assert.deepEqual(Object.keys(after.mcpServers), [
    "notes",
    "weather_mcp",
    "hosted-notes",
    "filesystem",
    "brave",
    "context7",
    "figma-remote",
    "off",
  ]);
  // The other hosts' files were only read.
  assert.equal(
    await Deno.readTextFile(`${w.dir}/.codex/config.toml`),
    await Deno.readTextFile(`${HOSTS}home/.codex/config.toml`),
  );

  // mcpx reads what was written: every server is valid to it (an unset ${VAR} is the server's).
  const loaded = await loadConfig({ cwd, env: {}, path: config });
  assert.equal(loaded.servers.length, 8);
  assert.deepEqual(loaded.warnings, []);

  // Elsewhere, with no mcpx configuration, servers from a project's host files go to the user's
  // own file: they are flagged for review; two hosts naming one server clash with each other,
  // not with the file.
  const other = `${w.dir}/other`;
  await Deno.mkdir(`${other}/.cursor`, { recursive: true });
  await Deno.mkdir(`${other}/.vscode`, { recursive: true });
  await Deno.writeTextFile(
    `${other}/.cursor/mcp.json`,
    JSON.stringify({ mcpServers: { gh: { command: "sh", args: ["-c", "gh-mcp"] } } }),
  );
  await Deno.writeTextFile(
    `${other}/.vscode/mcp.json`,
    JSON.stringify({ servers: { gh: { command: "gh-mcp" } } }),
  );
  const review = await w.mcpx(["import", "--from", "cursor", "--from", "vscode"], {
    cwd: other,
    env,
  });
  assert.equal(review.code, 0, review.stderr);
  assert.match(review.stderr, /skipped gh: its name is taken by the server "gh" from cursor /);
  assert.doesNotMatch(review.stderr, /already has a server named "gh"/);
  assert.match(
    review.stderr,
    /review gh \(once written\): it comes from a project's file, .*other\/\.cursor\/mcp\.json/,
  );
});

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { findHostFiles, type HostFile, readHostFile } from "./host_files.ts";
import { hostServers, type ImportedServer } from "./host_servers.ts";
import { IMPORT_HOSTS } from "./host_names.ts";

const FIXTURES = fileURLToPath(new URL("../tests/fixtures/hosts/", import.meta.url));
const HOME = `${FIXTURES}home`;
const PROJECT = `${FIXTURES}project`;
const env = { HOME };

let found: Map<string, ImportedServer & { file: HostFile }> | undefined;

/** Every fixture host's servers, read once, by `host/name`. */
function imported(): Map<string, ImportedServer & { file: HostFile }> {
  if (found) return found;
  const out = new Map<string, ImportedServer & { file: HostFile }>();
  for (const file of findHostFiles(IMPORT_HOSTS, { cwd: `${PROJECT}/.vscode`, env })) {
    for (const s of hostServers(file, readHostFile(file), PROJECT)) {
      out.set(`${file.host}/${s.name}`, { ...s, file });
    }
  }
  return found = out;
}

Deno.test("findHostFiles() finds each host's nearest project file and its user files", () => {
  const files = findHostFiles(IMPORT_HOSTS, { cwd: `${PROJECT}/.vscode`, env });
  assert.deepEqual(
    files.map((f) => [f.host, f.scope, f.path.slice(FIXTURES.length)]),
    [
      ["claude-code", "project", "project/.mcp.json"],
      ["claude-code", "user", "home/.claude.json"],
      ["claude-desktop", "user", "home/.config/Claude/claude_desktop_config.json"],
      ["cursor", "project", "project/.cursor/mcp.json"],
      ["cursor", "user", "home/.cursor/mcp.json"],
      ["vscode", "project", "project/.vscode/mcp.json"],
      ["vscode", "user", "home/.config/Code/User/mcp.json"],
      ["windsurf", "user", "home/.codeium/windsurf/mcp_config.json"],
      ["codex", "user", "home/.codex/config.toml"],
      ["opencode", "project", "project/opencode.jsonc"],
    ],
  );
  assert.deepEqual(findHostFiles(["codex"], { cwd: PROJECT, env: { HOME: "/nowhere" } }), []);
});

Deno.test("hostServers() keeps Claude Code's ${VAR} forms and notes headersHelper", () => {
  const s = imported();
  assert.deepEqual(s.get("claude-code/github")!.entry, {
    type: "http",
    url: "https://api.githubcopilot.com/mcp/",
    headers: { Authorization: "Bearer ${GITHUB_PAT}" },
  });
  assert.deepEqual(
    (s.get("claude-code/db")!.entry!.args as string[]).at(-1),
    "${DATABASE_URL:-postgres://localhost/dev}",
  );
  assert.match(s.get("claude-code/helper-auth")!.notes[0], /headersHelper .* is not run/);
  assert.ok(s.get("claude-code/sentry-user")!.entry);
  assert.equal(s.get("claude-code/not-here"), undefined, "another project's local servers");
});

Deno.test("hostServers() reads Claude Code's servers for this project from ~/.claude.json", () => {
  const file: HostFile = { host: "claude-code", scope: "user", path: "/h/.claude.json" };
  const doc = {
    mcpServers: { a: { command: "user-a" }, b: { command: "user-b" } },
    projects: {
      "/w": { mcpServers: { a: { command: "local-a" } } },
      "/w/p": { mcpServers: { c: { command: "local-c" } } },
      "/w/pq": { mcpServers: { d: { command: "other" } } },
    },
  };
  const got = hostServers(file, doc, "/w/p/src");
  assert.deepEqual(got.map((s) => [s.name, s.entry?.command]), [
    ["c", "local-c"],
    ["a", "user-a"],
    ["b", "user-b"],
  ]);
});

Deno.test("hostServers() leaves Claude Desktop's text literal and keeps literal env values", () => {
  const s = imported();
  assert.deepEqual(s.get("claude-desktop/brave")!.entry!.env, {
    BRAVE_API_KEY: "BSA-literal-key-0123456789",
  });
  const odd = hostServers(
    { host: "claude-desktop", scope: "user", path: "/c.json" },
    { mcpServers: { x: { command: "echo", args: ["${NOT_A_VAR}"] } } },
    "/",
  );
  assert.deepEqual(odd[0].entry!.args, ["$${NOT_A_VAR}"]);
});

Deno.test("hostServers() turns editors' ${env:…}, ${userHome} and ${workspaceFolder} into mcpx's", () => {
  const s = imported();
  assert.deepEqual(s.get("cursor/project-docs")!.entry!.args, [
    `${PROJECT}/tools/docs-mcp.js`,
  ]);
  assert.match(s.get("cursor/project-docs")!.notes[0], /envFile is not read/);
  // A user file has no workspace: that server is not imported, and says why.
  const local = s.get("cursor/local-tool")!;
  assert.equal(local.entry, undefined);
  assert.match(local.notes[0], /\$\{workspaceFolder\} in a user file names no one project/);
  assert.deepEqual(s.get("windsurf/figma")!.entry, {
    url: "https://figma.example.com/mcp",
    headers: { "X-Token": "${FIGMA_TOKEN}" },
    mcpx: { excludeTools: ["delete_file"] },
  });
  assert.equal(s.get("windsurf/old")!.entry!.disabled, true);
});

Deno.test("hostServers() reads VS Code's servers and inputs; ${command:…} does not translate", () => {
  const s = imported();
  assert.deepEqual(s.get("vscode/perplexity")!.entry!.env, {
    PERPLEXITY_API_KEY: "${PERPLEXITY_KEY}",
  });
  assert.match(s.get("vscode/perplexity")!.notes[0], /input:perplexity-key.*\$PERPLEXITY_KEY/);
  assert.deepEqual(s.get("vscode/fetch")!.entry, {
    type: "stdio",
    command: "uvx",
    args: ["mcp-server-fetch"],
  });
  assert.match(
    s.get("vscode/python-tool")!.notes[0],
    /\$\{command:python.interpreterPath\} has no/,
  );
  assert.ok(s.get("vscode/memory")!.entry);
});

Deno.test("hostServers() reads Codex's TOML: bearer token, tool lists, timeouts, enabled", () => {
  const s = imported();
  assert.deepEqual(s.get("codex/context7")!.entry, {
    command: "npx",
    args: ["-y", "@upstash/context7-mcp"],
    env: { LOG_LEVEL: "info" },
    mcpx: { startTimeout: "20s" },
  });
  assert.deepEqual(s.get("codex/figma-remote")!.entry, {
    url: "https://mcp.figma.com/mcp",
    headers: { Authorization: "Bearer ${FIGMA_OAUTH_TOKEN}" },
    mcpx: { tools: ["get_code"] },
  });
  assert.equal(s.get("codex/off")!.entry!.disabled, true);
});

Deno.test("hostServers() reads opencode's command arrays and {env:…}; {file:…} does not translate", () => {
  const s = imported();
  assert.deepEqual(s.get("opencode/everything")!.entry, {
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-everything"],
    env: { EVERYTHING_KEY: "${EVERYTHING_KEY}" },
  });
  assert.match(s.get("opencode/sentry")!.notes[0], /mcpx auth/);
  assert.equal(s.get("opencode/secret-file")!.entry, undefined);
  assert.match(s.get("opencode/secret-file")!.notes[0], /\{file:~\/.secrets\/k\}/);
});

Deno.test("hostServers() leaves out an entry mcpx's own parser refuses, with its message", () => {
  const got = hostServers(
    { host: "cursor", scope: "user", path: "/c.json" },
    { mcpServers: { both: { command: "x", url: "https://x.test/mcp" }, nothing: {} } },
    "/",
  );
  assert.equal(got[0].entry, undefined);
  assert.ok(got[0].notes.length > 0);
  assert.equal(got[1].entry, undefined);
});

import assert from "node:assert/strict";
import {
  type RegistryServer,
  registryShortName,
  translateRegistryServer,
} from "./registry_entry.ts";

const recorded = JSON.parse(
  await Deno.readTextFile(new URL("../tests/fixtures/registry/servers.json", import.meta.url)),
) as { servers: { server: RegistryServer }[] };
const named = (name: string) => recorded.servers.find((s) => s.server.name === name)!.server;

Deno.test("registryShortName() keeps the last part of a reverse-DNS name, as an identifier", () => {
  assert.equal(registryShortName("io.github.microsoft/playwright-mcp"), "playwright_mcp");
  assert.equal(registryShortName("com.example/notes"), "notes");
});

Deno.test("translateRegistryServer() runs an npm package pinned under npx -y", () => {
  const t = translateRegistryServer(named("io.github.microsoft/playwright-mcp"));
  assert.equal(t.name, "playwright_mcp");
  assert.equal(t.via, "package");
  // A boolean flag without a value is left to the user; an optional one too.
  assert.deepEqual(t.entry.command, "npx");
  assert.deepEqual(t.entry.args, ["-y", "@playwright/mcp@0.0.41"]);
  assert.deepEqual(t.optional.map((o) => o.name), ["--browser"]);
  assert.deepEqual(t.needs, []);
});

Deno.test("translateRegistryServer() reports required variables and never invents them", () => {
  const t = translateRegistryServer(named("io.github.example/weather-mcp"));
  assert.deepEqual(t.entry.command, "uvx");
  assert.deepEqual(t.entry.args, ["weather-mcp-server@0.5.0"]);
  // Required: a reference mcpx reports when unset. Optional without default: left out.
  assert.deepEqual(t.entry.env, { WEATHER_API_KEY: "${WEATHER_API_KEY}" });
  assert.deepEqual(t.needs, [{
    variable: "WEATHER_API_KEY",
    description: "API key for the weather service",
    secret: true,
    usedBy: "env WEATHER_API_KEY",
  }]);
  assert.deepEqual(t.optional.map((o) => o.name), ["WEATHER_CACHE_DIR"]);
});

Deno.test("translateRegistryServer() prefers a Streamable HTTP remote and fills its templates", () => {
  const t = translateRegistryServer(named("com.example/notes"));
  assert.equal(t.via, "remote");
  assert.deepEqual(t.entry.type, "http");
  assert.equal(t.entry.url, "https://mcp.notes.example.com/${REGION:-eu}/mcp");
  assert.deepEqual(t.entry.headers, { Authorization: "Bearer ${NOTES_TOKEN}" });
  assert.deepEqual(t.needs.map((n) => [n.variable, n.secret]), [["NOTES_TOKEN", true]]);
  assert.match(t.notes.join("\n"), /also published as npm @example\/notes-mcp@2.3.0/);
});

Deno.test("translateRegistryServer() runs an OCI image with docker run --rm -i, passing its env", () => {
  const t = translateRegistryServer(named("io.github.example/database-manager"), { as: "db" });
  assert.equal(t.name, "db");
  assert.deepEqual(t.entry.command, "docker");
  assert.deepEqual(t.entry.args, [
    "run",
    "--rm",
    "-i",
    "--network",
    "host",
    "-e",
    "DB_PASSWORD",
    "example/database-manager-mcp:3.1.0",
    "--host",
    "localhost",
    "${DATABASE_NAME}",
  ]);
  assert.deepEqual(t.needs.map((n) => n.variable), ["DB_PASSWORD", "DATABASE_NAME"]);
});

Deno.test("translateRegistryServer() runs NuGet under dnx with fixed arguments after --", () => {
  const t = translateRegistryServer(named("io.github.example/sample-nuget"));
  assert.deepEqual(t.entry.args, ["Example.SampleMcpServer@0.5.0", "--yes", "--", "mcp", "start"]);
});

Deno.test("translateRegistryServer() refuses an entry offering nothing mcpx runs, saying why", () => {
  assert.throws(
    () => translateRegistryServer(named("io.github.example/text-editor")),
    /offers no remote and no package mcpx can run: mcpb .* is an MCP bundle/,
  );
  const t = translateRegistryServer({
    name: "x.y/z",
    packages: [{ registryType: "npm", identifier: "a", version: "1.0.0", runtimeHint: "bunx" }],
  });
  assert.deepEqual([t.entry.command, t.entry.args], ["bunx", ["a@1.0.0"]]);
});

Deno.test("translateRegistryServer() writes a literal ${ so mcpx does not expand it", () => {
  const t = translateRegistryServer({
    name: "x.y/z",
    packages: [{
      registryType: "npm",
      identifier: "a",
      version: "1.0.0",
      packageArguments: [{ type: "positional", value: "${HOME}" }],
    }],
  });
  assert.deepEqual(t.entry.args, ["-y", "a@1.0.0", "$${HOME}"]);
});

import assert from "node:assert/strict";
import { loadConfig } from "./load.ts";
import { configRedactor } from "./secrets.ts";
import { interpolationEnv, loadUserEnv, userEnvPath } from "./user_env.ts";

/** A home with `~/.config/mcpx/.env` holding `dotenv`, and a project with `config`. */
async function world(dotenv: string | null, config: string) {
  const root = await Deno.makeTempDir({ prefix: "mcpx-user-env-" });
  const home = `${root}/home`;
  await Deno.mkdir(`${home}/.config/mcpx`, { recursive: true });
  if (dotenv !== null) await Deno.writeTextFile(`${home}/.config/mcpx/.env`, dotenv);
  await Deno.mkdir(`${root}/proj`);
  await Deno.writeTextFile(`${root}/proj/.mcp.json`, config);
  return {
    root,
    home,
    cwd: `${root}/proj`,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

const CONFIG = `{ "mcpServers": { "api": { "url": "https://api.test/mcp",
  "headers": { "Authorization": "Bearer \${API_TOKEN}" } },
  "local": { "command": "server", "env": { "LEVEL": "\${LEVEL}" } } } }`;

Deno.test("loadConfig() expands ${VAR} from the user-level .env", async (t) => {
  await using w = await world("API_TOKEN=from-file\nLEVEL=debug\nUNUSED=x\n", CONFIG);
  const env = { HOME: w.home };
  const config = await loadConfig({ cwd: w.cwd, env });
  const api = config.servers.find((s) => s.name === "api")!;
  const local = config.servers.find((s) => s.name === "local")!;

  await t.step("a variable only the file sets is used", () => {
    assert.equal(api.headers?.Authorization, "Bearer from-file");
    assert.equal(api.unavailable, undefined);
  });
  await t.step("a server's env holds its own entries only, never the whole file", () => {
    assert.deepEqual(local.env, { LEVEL: "debug" });
  });
  await t.step("the process environment wins over the file", async () => {
    const mine = await loadConfig({ cwd: w.cwd, env: { ...env, API_TOKEN: "from-env" } });
    assert.equal(
      mine.servers.find((s) => s.name === "api")!.headers?.Authorization,
      "Bearer from-env",
    );
    assert.notEqual(mine.fingerprint, config.fingerprint);
  });
  await t.step("the file's values are secrets the redactor hides", () => {
    const redactor = configRedactor(config, env);
    assert.doesNotMatch(redactor.text("sent from-file upstream"), /from-file/);
  });
});

Deno.test("loadConfig() without a user-level .env leaves ${VAR} unset", async () => {
  await using w = await world(null, CONFIG);
  const config = await loadConfig({ cwd: w.cwd, env: { HOME: w.home } });
  const api = config.servers.find((s) => s.name === "api")!;
  assert.equal(api.unavailable?.code, "unset-variable");
  assert.deepEqual(await loadUserEnv({ HOME: w.home }), { file: null, values: {} });
});

Deno.test("userEnvPath() prefers $XDG_CONFIG_HOME/mcpx/.env when it exists", async () => {
  await using w = await world("A=home\n", "{}");
  await Deno.mkdir(`${w.root}/xdg/mcpx`, { recursive: true });
  const env = { HOME: w.home, XDG_CONFIG_HOME: `${w.root}/xdg` };
  assert.equal(userEnvPath(env), `${w.home}/.config/mcpx/.env`);
  await Deno.writeTextFile(`${w.root}/xdg/mcpx/.env`, "A=xdg\n");
  assert.equal(userEnvPath(env), `${w.root}/xdg/mcpx/.env`);
  await loadUserEnv(env);
  assert.equal(interpolationEnv(env).A, "xdg");
  assert.equal(interpolationEnv({ ...env, A: "" }).A, "");
});

import assert from "node:assert/strict";
import { ConfigError } from "../core/errors.ts";
import { parseConfig } from "./parse.ts";
import {
  declarationClashes,
  declarationFiles,
  type DerivedKind,
  findDeclaration,
  readDeclarations,
  withDerivedServers,
} from "./derived_servers.ts";
import type { LoadedConfig } from "./types.ts";

function configWith(dir: string, servers = "{}"): LoadedConfig {
  const parsed = parseConfig(`{ "mcpServers": ${servers} }`, `${dir}/.mcp.json`, {});
  return {
    path: `${dir}/.mcp.json`,
    realPath: `${dir}/.mcp.json`,
    fingerprint: "f".repeat(16),
    contentHash: "c".repeat(16),
    ...parsed,
  };
}

/** The error `fn` rejects with, held to be a ConfigError. */
async function rejects(
  fn: () => Promise<unknown>,
  _type: typeof ConfigError,
): Promise<ConfigError> {
  try {
    await fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  throw new Error("did not reject");
}

function reader(values: Partial<Record<DerivedKind["setting"], string>>) {
  return (name: DerivedKind["setting"]) => values[name] ?? "";
}

const GITX = { name: "gitx", command: "git", tools: [{ name: "log", args: ["log"] }] };

Deno.test("withDerivedServers() returns the configuration itself when no kind is set", async () => {
  const dir = await Deno.makeTempDir();
  const config = configWith(dir);
  assert.ok((await withDerivedServers(config, reader({}), {})) === config);
});

Deno.test("withDerivedServers() appends one stdio server per declared item running mcpx's subcommand", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/decl`);
  await Deno.writeTextFile(`${dir}/decl/a.json`, JSON.stringify({ adapters: [GITX] }));
  await Deno.writeTextFile(`${dir}/decl/notes.txt`, "not a declaration");
  await Deno.writeTextFile(
    `${dir}/apis.jsonc`,
    `// comments allowed\n{ "apis": [{ "name": "pet-store", "description": "Pets", "cwd": "sub" }] }`,
  );
  const config = configWith(dir, `{ "fs": { "command": "x" } }`);
  const out = await withDerivedServers(
    config,
    reader({ "paths.adapters": `${dir}/decl`, "paths.apis": `${dir}/apis.jsonc` }),
    {},
  );
  assert.deepEqual(out.servers.map((s) => s.namespace), ["fs", "gitx", "pet_store"]);
  const gitx = out.servers[1];
  assert.deepEqual(gitx.transport, "stdio");
  assert.deepEqual(gitx.args.slice(-5), [
    "adapter",
    "serve",
    "gitx",
    "--from",
    `${dir}/decl/a.json`,
  ]);
  assert.deepEqual(gitx.cwd, `${dir}/decl`);
  assert.deepEqual(gitx.derived, { kind: "adapters", file: `${dir}/decl/a.json` });
  const api = out.servers[2];
  assert.deepEqual(api.args.slice(-5, -2), ["api", "serve", "pet-store"]);
  assert.deepEqual(api.cwd, `${dir}/sub`);
  assert.deepEqual(api.description, "Pets");
  assert.notEqual(out.fingerprint, config.fingerprint);
  assert.notEqual(out.contentHash, config.contentHash);
  // An edited declaration is another fingerprint (its own daemon and schema cache).
  await Deno.writeTextFile(
    `${dir}/decl/a.json`,
    JSON.stringify({ adapters: [{ ...GITX, command: "/usr/bin/git" }] }),
  );
  const edited = await withDerivedServers(config, reader({ "paths.adapters": `${dir}/decl` }), {});
  const again = await withDerivedServers(config, reader({ "paths.adapters": `${dir}/decl` }), {});
  assert.deepEqual(edited.fingerprint, again.fingerprint);
  assert.notEqual(edited.fingerprint, out.fingerprint);
});

Deno.test("withDerivedServers() refuses a declared name a configured server has", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify({ adapters: [GITX] }));
  const config = configWith(dir, `{ "gitx": { "command": "x" } }`);
  const error = await rejects(
    () => withDerivedServers(config, reader({ "paths.adapters": `${dir}/a.json` }), {}),
    ConfigError,
  );
  assert.ok(
    error.message.includes(`adapter "gitx" takes the name of the configured server "gitx"`),
  );
});

Deno.test("readDeclarations() names the file, the path and the fix for a malformed declaration", async () => {
  const dir = await Deno.makeTempDir();
  const cases: [string, string][] = [
    [`{ "tools": [] }`, "adapters: must hold a list of adapters"],
    [`{ "adapters": [{ "name": "a b" }] }`, "adapters[0].name: must be a name"],
    [`{ "adapters": [7] }`, "adapters[0]: must be an object, got 7"],
    [
      `{ "adapters": [{ "name": "a" }, { "name": "a" }] }`,
      `adapters[1].name: "a" is declared already`,
    ],
  ];
  for (const [text, expected] of cases) {
    await Deno.writeTextFile(`${dir}/a.json`, text);
    const error = await rejects(
      () => readDeclarations("adapters", [`${dir}/a.json`]),
      ConfigError,
    );
    assert.ok(error.message.includes(`${dir}/a.json`), error.message);
    assert.ok(error.message.includes(expected), error.message);
  }
});

Deno.test("findDeclaration() finds an item by name and lists the declared ones when it is absent", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify({ adapters: [GITX] }));
  assert.deepEqual(
    (await findDeclaration("adapters", "gitx", [`${dir}/a.json`])).item.command,
    "git",
  );
  const missing = await rejects(
    () => findDeclaration("adapters", "nope", [`${dir}/a.json`]),
    ConfigError,
  );
  assert.ok(
    missing.message.includes(`no adapter named "nope"`) &&
      missing.message.includes("declared: gitx"),
  );
  const place = await rejects(
    () => findDeclaration("adapters", "gitx", [`${dir}/absent.json`]),
    ConfigError,
  );
  assert.ok(place.message.includes("paths.adapters names this place, which does not exist"));
});

Deno.test("withDerivedServers() gives a changed value of a variable a declaration names its own fingerprint", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/apis.json`,
    JSON.stringify({
      apis: [{
        name: "pets",
        spec: "./p.yaml",
        auth: { type: "bearer", token: "${PET_TOKEN}" },
      }],
    }),
  );
  const config = configWith(dir);
  const settings = reader({ "paths.apis": `${dir}/apis.json` });
  const first = await withDerivedServers(config, settings, { PET_TOKEN: "one" });
  const again = await withDerivedServers(config, settings, { PET_TOKEN: "one", OTHER: "x" });
  const second = await withDerivedServers(config, settings, { PET_TOKEN: "two" });
  assert.equal(first.fingerprint, again.fingerprint);
  assert.notEqual(first.fingerprint, second.fingerprint);
  assert.ok(!first.fingerprint.includes("one"));
  // The server's listing too: a listing made with one value (or with it set) is not another's.
  const unset = await withDerivedServers(config, settings, {});
  const ids = (c: LoadedConfig) => c.servers.map((s) => [s.listingId, s.poolId].join());
  assert.deepEqual(ids(first), ids(again));
  assert.notDeepEqual(ids(first), ids(second));
  assert.notDeepEqual(ids(first), ids(unset));
});

Deno.test("declarationFiles() names the option that gave a missing place, and its fix", () => {
  assert.throws(
    () => declarationFiles(["/nowhere/mcpx-none.json"], "--from"),
    (e: Error) =>
      /--from names this place, which does not exist; give --from a declaration file/.test(
        e.message,
      ) && !/remove it from/.test(e.message),
  );
});

Deno.test("declarationClashes() names every declared item a server or earlier item has", () => {
  const item = (name: string, index: number) => ({
    kind: "adapters" as const,
    name,
    file: "/d/a.json",
    index,
    item: { name },
  });
  const config = configWith("/p", `{ "my_srv": { "command": "x" }, "gitx": { "command": "x" } }`);
  const clashes = declarationClashes(config, [
    item("gitx", 0),
    item("my-srv", 1),
    item("ok", 2),
    item("ok", 3),
  ]);
  assert.deepEqual(clashes.map((c) => c.declaration.index), [0, 1, 3]);
  assert.match(clashes[0].error.message, /adapter "gitx" takes the name of the configured server/);
  assert.match(clashes[1].error.message, /adapters\[1\]\.name: adapter "my-srv" .* "my_srv"/);
  assert.match(clashes[2].error.message, /takes the name of the adapter "ok" in \/d\/a\.json/);
});

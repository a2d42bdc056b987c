/**
 * Profiles and aliases against the real server-everything (spec 000,
 * "Profiles and aliases"): an alias with its target's leasing runs in its
 * target's process, one with another scope in its own; an alias shows only
 * its own tool subset; a profile decides what ls, search, types and call see.
 */
import assert from "node:assert/strict";
import { SERVERS, world } from "./_helpers.ts";

const [command, ...args] = SERVERS.everything;

interface StatusJson {
  servers: {
    namespace: string;
    poolId: string;
    sharedWith?: string[];
    instances: { pid?: number; key: string }[];
  }[];
}

Deno.test("aliasOf shares its target's process when the leasing matches, and filters its tools", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: { command, args },
      peek: {
        aliasOf: "everything",
        mcpx: { tools: ["echo", "get-sum"], description: "two tools of the same process" },
      },
      apart: { aliasOf: "everything", mcpx: { scope: "session", tools: ["echo"] } },
    },
  });
  const echo = async (ns: string, extra: string[] = []) => {
    const r = await w.mcpx(["call", `${ns}.echo`, `{"message":"${ns}"}`, ...extra]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Echo: ${ns}`));
  };
  await echo("everything");
  await echo("peek");
  await echo("apart", ["--session", "s1"]);

  await t.step("an alias with the same leasing reaches the same pid", async () => {
    const status = await w.json<StatusJson>(["status"]);
    const row = (ns: string) => status.servers.find((s) => s.namespace === ns)!;
    const pids = (ns: string) => row(ns).instances.map((i) => i.pid);
    assert.equal(pids("everything").length, 1);
    assert.deepEqual(pids("peek"), pids("everything"));
    assert.equal(row("peek").poolId, row("everything").poolId);
    assert.deepEqual(row("everything").sharedWith, ["peek"]);
  });

  await t.step("an alias with another scope gets a process of its own", async () => {
    const status = await w.json<StatusJson>(["status"]);
    const apart = status.servers.find((s) => s.namespace === "apart")!;
    const everything = status.servers.find((s) => s.namespace === "everything")!;
    assert.equal(apart.instances.length, 1);
    assert.equal(apart.instances[0].key, "session:s1");
    assert.notEqual(apart.instances[0].pid, everything.instances[0].pid);
    assert.equal(apart.sharedWith, undefined);
  });

  await t.step("the status table lists the shared process once, under both names", async () => {
    const r = await w.mcpx(["status"]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split("\n").filter((l) => /^everything/.test(l));
    assert.equal(lines.length, 1, r.stdout);
    assert.match(lines[0], /^everything,peek\s/);
  });

  await t.step("ls and types show the alias's own tool subset", async () => {
    const ls = await w.json<
      { namespaces: { namespace: string; tools: number; aliasOf?: string }[] }
    >(
      ["ls"],
    );
    const peek = ls.namespaces.find((n) => n.namespace === "peek")!;
    assert.equal(peek.tools, 2);
    assert.equal(peek.aliasOf, "everything");
    assert.ok(ls.namespaces.find((n) => n.namespace === "everything")!.tools > 2);
    const types = await w.mcpx(["types", "peek"]);
    assert.equal(types.code, 0, types.stderr);
    assert.match(types.stdout, /echo/);
    assert.match(types.stdout, /get_sum/);
    assert.doesNotMatch(types.stdout, /get_tiny_image/);
  });

  await t.step("a tool outside the alias's subset is refused", async () => {
    const r = await w.mcpx(["call", "peek.get-tiny-image", "{}"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /hidden by the configuration/);
  });
});

Deno.test("profiles decide what ls, search, types and call see", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: { command, args },
      web: {
        aliasOf: "everything",
        mcpx: { tools: ["echo"], profiles: ["web"], default: false, tags: ["webonly"] },
      },
      data: { aliasOf: "everything", mcpx: { tools: ["get-sum"], profiles: ["data"] } },
    },
  });
  const namespaces = async (flags: string[]) =>
    (await w.json<{ namespaces: { namespace: string }[] }>([...flags, "ls"])).namespaces
      .map((n) => n.namespace);

  await t.step("ls: the default set, plus a profile, only a profile, everything", async () => {
    assert.deepEqual(await namespaces([]), ["everything", "data"]);
    assert.deepEqual(await namespaces(["--profile", "web"]), ["everything", "web", "data"]);
    assert.deepEqual(await namespaces(["--profile", "web", "--skip-default"]), ["web"]);
    assert.deepEqual(
      await namespaces(["--profile", "web", "--profile", "data", "--skip-default"]),
      [
        "web",
        "data",
      ],
    );
    assert.deepEqual(await namespaces(["--profile", "web,data", "--skip-default"]), [
      "web",
      "data",
    ]);
    assert.deepEqual(await namespaces(["--all-profiles"]), ["everything", "web", "data"]);
  });

  await t.step("the selection is a setting: MCPX_PROFILES_ACTIVE works too", async () => {
    const r = await w.json<{ namespaces: { namespace: string }[] }>(["ls"], {
      env: { MCPX_PROFILES_ACTIVE: "web", MCPX_PROFILES_SKIP_DEFAULT: "true" },
    });
    assert.deepEqual(r.namespaces.map((n) => n.namespace), ["web"]);
  });

  await t.step("an unknown profile is a usage error listing the known ones", async () => {
    const r = await w.mcpx(["--profile", "wbe", "ls"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown profile "wbe".*"data", "web"/);
  });

  await t.step("search finds the profile's tools only under the profile", async () => {
    const hits = async (flags: string[]) =>
      (await w.json<{ hits: { namespace: string }[] }>([...flags, "search", "echo"])).hits
        .map((r) => r.namespace);
    assert.ok(!(await hits([])).includes("web"));
    assert.ok((await hits(["--profile", "web"])).includes("web"));
  });

  await t.step("types of a namespace outside the selection names its profile", async () => {
    const r = await w.mcpx(["types", "web"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /outside the selected profiles.*"web".*--profile web/);
    assert.equal((await w.mcpx(["--profile", "web", "types", "web"])).code, 0);
  });

  await t.step("call outside the selection is refused; under the profile it runs", async () => {
    const refused = await w.mcpx(["call", "web.echo", '{"message":"x"}']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /outside the selected profiles.*--profile web/);
    const ok = await w.mcpx(["--profile", "web", "call", "web.echo", '{"message":"x"}']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /Echo: x/);
  });
});

/**
 * The discovery verbs (`ls`, `search`, `types`, `catalog`) on three real
 * servers over stdio: a cold cache is listed once through the daemon and
 * cached; afterwards every discovery verb answers from the schema cache with
 * no daemon and no server running. One world for every step.
 */

import assert from "node:assert/strict";
import { eventually, schemaCacheFiles, stdioServer, world } from "./_helpers.ts";
import { readSchemaCache } from "../engine/schema_cache.ts";

interface LsJson {
  config: string;
  namespaces: { namespace: string; tools: number; state: string; live: number }[];
}

interface TypesHintJson {
  refs: string[];
  command: string;
  tokens: number;
  namespaces: string[];
  namespaceTokens: number;
}

interface StatusJson {
  daemon: boolean;
  servers: { namespace: string; instances: { id: string; pid?: number }[] }[];
}

interface SearchJson {
  mode: "all" | "any";
  hits: {
    function: string;
    namespace: string;
    score: number;
    tags: string[];
    explain?: { term: string; field: string; score: number }[];
  }[];
}

Deno.test("discovery verbs list a cold cache once, then answer without any server", async (t) => {
  await using w = await world();
  await Deno.mkdir(`${w.dir}/files`);
  await Deno.writeTextFile(`${w.dir}/files/hello.txt`, "hello\n");
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      memory: stdioServer("memory", [], { tags: ["graph"] }),
      filesystem: stdioServer("filesystem", [`${w.dir}/files`], {
        toolTags: { read_text_file: ["reading"] },
      }),
    },
  });
  // The index files, not a write's temporary file: the daemon writes the cache again when the
  // type generator adds the declarations, which on a cold Deno cache can be while `ls` returns.
  const cacheFiles = () => schemaCacheFiles(`${w.dir}/.cache/mcpx`);

  await t.step("ls on a cold cache lists every server once and caches the result", async () => {
    assert.deepEqual(cacheFiles(), []);
    const ls = await w.json<LsJson>(["ls"]);
    assert.deepEqual(ls.namespaces.map((n) => n.namespace), ["everything", "memory", "filesystem"]);
    for (const ns of ls.namespaces) {
      assert.equal(ns.state, "ready", `${ns.namespace}: ${JSON.stringify(ns)}`);
      assert.ok(ns.tools > 0, `${ns.namespace} has tools`);
    }
    assert.equal(cacheFiles().length, 1);
    const listedAt = () => {
      const cache = JSON.parse(Deno.readTextFileSync(`${w.dir}/.cache/mcpx/${cacheFiles()[0]}`));
      return Object.entries(cache.servers).map((
        [name, s],
      ) => [name, (s as { listedAt: string }).listedAt]);
    };
    const listedFirst = listedAt();
    assert.equal(listedFirst.length, 3);

    const status = await w.json<StatusJson>(["status"]);
    assert.equal(status.daemon, true);
    for (const server of status.servers) {
      assert.equal(server.instances.length, 1, `${server.namespace} started once`);
    }
    // The first ls's work ends when its declarations are stored (made in a process of their
    // own after the listing answered: decision 0029); only then is nothing more to start.
    const declared = () =>
      Object.values(readSchemaCache(`${w.dir}/.cache/mcpx/${cacheFiles()[0]}`)?.servers ?? {})
        .every((s) => s.tools.every((t) => t.declaration !== undefined));
    assert.ok(await eventually(declared, 60_000), "the declarations were stored");
    const processes = w.processes().sort();

    const again = await w.json<LsJson>(["ls"]);
    assert.deepEqual(
      again.namespaces.map((n) => [n.namespace, n.tools, n.state]),
      ls.namespaces.map((n) => [n.namespace, n.tools, n.state]),
    );
    const after = await w.json<StatusJson>(["status"]);
    assert.deepEqual(
      after.servers.map((s) => s.instances.map((i) => [i.id, i.pid])),
      status.servers.map((s) => s.instances.map((i) => [i.id, i.pid])),
      "a second ls starts no instance",
    );
    // No new process (one may have ended meanwhile: the type generator's, which ends a
    // moment after it answers).
    const started = w.processes().filter((pid) => !processes.includes(pid));
    assert.deepEqual(started, [], "a second ls starts no process");
    assert.deepEqual(listedAt(), listedFirst, "a second ls lists nothing again");
  });

  await t.step("ls answers from the cache with no daemon running and starts none", async () => {
    assert.equal((await w.mcpx(["stop"])).code, 0);
    assert.ok(await eventually(() => w.processes().length === 0), `left: ${w.processes()}`);
    const ls = await w.json<LsJson>(["ls"]);
    assert.deepEqual(ls.namespaces.map((n) => n.state), ["ready", "ready", "ready"]);
    assert.ok(ls.namespaces.every((n) => n.tools > 0 && n.live === 0));
    const human = await w.mcpx(["ls"]);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^NAMESPACE\s+TOOLS\s+SHARING\s+SCOPE\s+LIVE\s+STATE\s+DESCRIPTION/);
    assert.match(
      human.stdout,
      /Next: `mcpx search <words>` finds tools and prints the `mcpx types`/,
    );
    // server-everything's task-only tool is called as a task (tests/tasks_test.ts): no
    // tool is left out (tests/ls_many_servers_test.ts has one that is).
    assert.doesNotMatch(human.stderr, /unusable/);
    assert.deepEqual(w.processes(), []);
  });

  await t.step("search ranks the exact name first", async () => {
    const result = await w.json<SearchJson>(["search", "echo"]);
    assert.equal(result.mode, "all");
    assert.equal(result.hits[0].function, "everything.echo");
    assert.equal(result.hits[0].score, 100);
  });

  await t.step("search --tag keeps only tools carrying the tag", async () => {
    const graph = await w.json<SearchJson>(["search", "--tag", "graph", "entities"]);
    assert.ok(graph.hits.length > 0);
    for (const hit of graph.hits) {
      assert.equal(hit.namespace, "memory");
      assert.ok(hit.tags.includes("graph"), JSON.stringify(hit));
    }
    const reading = await w.json<SearchJson>(["search", "--tag", "reading", "file"]);
    assert.deepEqual(reading.hits.map((h) => h.function), ["filesystem.read_text_file"]);
    const none = await w.json<SearchJson>(["search", "--tag", "no-such-tag", "echo"]);
    assert.deepEqual(none.hits, []);
  });

  await t.step("search --explain gives per-term, per-field scores", async () => {
    const result = await w.json<SearchJson>(["search", "--explain", "read", "file"]);
    const top = result.hits[0];
    assert.ok(top.explain, "explain present");
    assert.deepEqual(top.explain.map((m) => m.term), ["read", "file"]);
    assert.equal(top.score, top.explain.reduce((sum, m) => sum + m.score, 0));
    const human = await w.mcpx(["search", "--explain", "echo"]);
    assert.match(human.stdout, /^everything\.echo {2}score 100\n {2}echo: name \+100$/m);
  });

  await t.step("search falls back to any term when no tool matches them all", async () => {
    const result = await w.json<SearchJson>(["search", "echo", "zzqxj"]);
    assert.equal(result.mode, "any");
    assert.equal(result.hits[0].function, "everything.echo");
    const limited = await w.json<SearchJson>(["search", "-n", "2", "file"]);
    assert.equal(limited.hits.length, 2);
  });

  await t.step("types of a namespace and of one tool type-check with deno check", async () => {
    const all = await w.mcpx(["types", "everything", "memory", "filesystem"]);
    assert.equal(all.code, 0, all.stderr);
    for (const ns of ["everything", "memory", "filesystem"]) {
      assert.match(all.stdout, new RegExp(`^declare namespace ${ns} \\{`, "m"));
    }
    assert.match(all.stdout, /function echo\(args: \{/);
    await Deno.writeTextFile(`${w.dir}/servers.d.ts`, all.stdout);
    await Deno.writeTextFile(
      `${w.dir}/use.ts`,
      `/// <reference path="./servers.d.ts" />
export const ok = () => everything.echo({ message: "hi" });
export const sum = () => everything.get_sum({ a: 1, b: 2 });
// @ts-expect-error message must be a string
export const bad = () => everything.echo({ message: 42 });
// @ts-expect-error no such tool
export const missing = () => everything.no_such_tool({});
`,
    );
    const check = await new Deno.Command(Deno.execPath(), {
      args: ["check", "servers.d.ts", "use.ts"],
      cwd: w.dir,
      env: w.env,
      clearEnv: true,
    }).output();
    assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));

    const one = await w.mcpx(["types", "everything.echo"]);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /function echo\(/);
    assert.doesNotMatch(one.stdout, /function get_sum\(/);
    const json = await w.json(["types", "everything.echo"]);
    assert.deepEqual(
      json.namespaces.map((n: { tools: { function: string }[] }) => n.tools.map((t) => t.function)),
      [["everything.echo"]],
    );
  });

  await t.step("search ends with the types command for exactly its hits and its cost", async () => {
    const human = await w.mcpx(["search", "entities"]);
    assert.equal(human.code, 0, human.stderr);
    const last = human.stdout.trimEnd().split("\n").at(-1)!;
    const json = await w.json<SearchJson & { types: TypesHintJson }>(["search", "entities"]);
    const refs = json.hits.map((h) => h.function);
    assert.ok(refs.length >= 2, JSON.stringify(refs));
    assert.equal(json.types.command, `mcpx types ${refs.join(" ")}`);
    assert.equal(
      last,
      `types for these ${refs.length}: ${json.types.command} ` +
        `(~${json.types.tokens.toLocaleString("en-US")} tokens); ` +
        `whole namespace ~${json.types.namespaceTokens.toLocaleString("en-US")}`,
    );
    // The command runs as given, and costs what the line says (tokens as the catalog counts them).
    const some = await w.mcpx(["types", ...refs]);
    assert.equal(some.code, 0, some.stderr);
    assert.equal(json.types.tokens, Math.ceil(new TextEncoder().encode(some.stdout).length / 3));
    for (const ref of refs) {
      assert.match(some.stdout, new RegExp(`function ${ref.split(".")[1]}\\(`));
    }
    const whole = await w.mcpx(["types", "memory"]);
    assert.equal(
      json.types.namespaceTokens,
      Math.ceil(new TextEncoder().encode(whole.stdout).length / 3),
    );
    assert.ok(json.types.tokens < json.types.namespaceTokens);
  });

  await t.step("types says once what a namespace's tools repeat", async () => {
    const memory = (await w.mcpx(["types", "memory"])).stdout;
    assert.equal(
      memory.split("\n").filter((l) => l.startsWith("//") || l.startsWith("type ")).length,
      1,
    );
    assert.equal(memory.match(/interface Entity \{/g)?.length, 1, memory);
    assert.match(
      memory,
      /function read_graph\(args: \{\}\): Promise<\{ entities: Entity\[\]; relations: Relation\[\] \}>;/,
    );
    // server-memory 2026.8.31 rendered 5,075 bytes before; a quarter less at least.
    assert.ok(memory.length <= 3806, `${memory.length} bytes:\n${memory}`);
    const everything = (await w.mcpx(["types", "everything"])).stdout;
    assert.match(everything, /\/\*\* Whether to include an example image \(default false\) \*\//);
    assert.doesNotMatch(everything, /@default|MCP tool name/);
    assert.match(
      everything,
      /function echo\(args: \{ \/\*\* Message to echo \*\/ message: string \}\)/,
    );
    // One tool alone is laid out the same way.
    const one = (await w.mcpx(["types", "everything.get_annotated_message"])).stdout;
    assert.match(one, /\/\*\* Whether to include an example image \(default false\) \*\//);
    assert.match(one, /messageType: "error" \| "success" \| "debug";/);
  });

  await t.step("catalog --budget never exceeds the budget and lists every namespace", async () => {
    let shownBefore = -1;
    for (const budget of [120, 600, 4000]) {
      const c = await w.json(["catalog", "--budget", String(budget)]);
      assert.equal(c.budget, budget);
      assert.ok(c.tokens <= budget, `${c.tokens} tokens > budget ${budget}`);
      for (const ns of ["everything", "memory", "filesystem"]) {
        assert.ok(c.text.includes(ns), `budget ${budget} lists ${ns}`);
      }
      assert.ok(c.shown >= shownBefore, "a larger budget shows at least as many signatures");
      shownBefore = c.shown;
    }
    assert.ok(shownBefore > 0);
  });

  await t.step("no discovery verb started a daemon or a server", async () => {
    assert.deepEqual(w.processes(), []);
    assert.deepEqual((await w.json(["daemons"])).daemons, []);
  });
});

Deno.test("search with no hits names the namespaces it could not search, and points at status", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      broken: { command: "sh", args: ["-c", "echo 'fatal: missing API_KEY' >&2; exit 3"] },
    },
  });
  const none = await w.mcpx(["search", "zzqxj"]);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout, /No tool matches "zzqxj"/);
  assert.match(
    none.stdout,
    /Not searched: broken \(listing its server failed; `mcpx status` shows why\)/,
  );
  const json = await w.json(["search", "zzqxj"]);
  assert.deepEqual(json.unlisted.map((u: { namespace: string }) => u.namespace), ["broken"]);
  assert.match(json.unlisted[0].error, /exit|API_KEY|closed/i);
  // With hits, the output stays the table and the types line.
  const some = await w.mcpx(["search", "echo"]);
  assert.doesNotMatch(some.stdout, /Not searched/);
  assert.match(some.stdout, /^types for this one: mcpx types everything\.echo \(~\d+ tokens\)/m);
});

/**
 * Every command's `--json` document is what its op's output schema declares
 * (decision 0021): each command runs on real servers (server-everything,
 * server-filesystem, server-memory) and what it prints is parsed with its
 * op's `output` schema, whose objects are strict, so a field added, dropped
 * or retyped on either side fails here. Each document is also checked to say
 * something (ls has rows, a call has content), so an empty answer cannot pass
 * for a valid one.
 *
 * `mcpx daemon` prints no document (its schema is `never`) and is not run.
 */
import assert from "node:assert/strict";
import * as z from "zod";
import { backgroundMcpx, eventually, stdioServer, type World, world } from "./_helpers.ts";
import type { OpSpec } from "../ops/op.ts";
import * as discovery from "../ops/discovery_ops.ts";
import * as engine from "../ops/engine_ops.ts";
import * as logs from "../ops/log_ops.ts";
import { STATS_VIEWS } from "../logs/stats.ts";
import * as scripts from "../ops/script_ops.ts";
import { ErrorDocument } from "../ops/output_shapes.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;

/** `mcpx --json <args>`'s document, parsed with `schema`; fails naming the fields that differ. */
async function documentOf(
  w: World,
  schema: z.ZodType,
  args: string[],
  options: { code?: number; env?: Record<string, string> } = {},
): Promise<Doc> {
  const r = await w.mcpx(["--json", ...args], { env: options.env });
  assert.equal(r.code, options.code ?? 0, `mcpx ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`);
  const doc = JSON.parse(r.stdout);
  const parsed = schema.safeParse(doc);
  assert.ok(
    parsed.success,
    `mcpx --json ${args.join(" ")} drifted from its schema:\n` +
      `${parsed.success ? "" : z.prettifyError(parsed.error)}\n${r.stdout}`,
  );
  return doc;
}

/** One command to run: its op, its arguments, and what its document must say. */
interface Case {
  op: OpSpec;
  args: string[];
  says: (doc: Doc) => unknown;
  /** The exit code expected (default 0). */
  code?: number;
  /** Run again until it says it: the log is read as it catches up. */
  retry?: boolean;
  env?: Record<string, string>;
}

/** Like {@link documentOf} with `op.output`; fails when the document says nothing. */
async function check(w: World, { op, args, says, ...options }: Case): Promise<Doc> {
  let doc = await documentOf(w, op.output, args, options);
  if (options.retry) {
    await eventually(
      async () => Boolean(says(doc = await documentOf(w, op.output, args, options))),
      15_000,
    );
  }
  assert.ok(says(doc), `mcpx --json ${args.join(" ")} says nothing:\n${JSON.stringify(doc)}`);
  return doc;
}

const PROBE = `// Calls a tool, logs, emits and returns: every part of the run's envelope.
export default async function main() {
  log.info("probing {n}", { n: 1 });
  emit({ step: 1 });
  const echoed = await everything.echo({ message: "probe" });
  return { echoed: String(echoed) };
}
`;

Deno.test("every command's --json document parses with its op's output schema", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything"),
      fs: stdioServer("filesystem", [w.dir]),
      memory: stdioServer("memory"),
      // One that fails to list and one that cannot start: rows with their error fields.
      broken: { command: "/bin/false" },
      unset: { command: "${JSON_OUTPUT_TEST_UNSET}" },
    },
  });
  await Deno.mkdir(`${w.dir}/.mcpx/scripts`, { recursive: true });
  await Deno.writeTextFile(`${w.dir}/.mcpx/scripts/probe.ts`, PROBE);
  const runAll = async (cases: Case[]) => {
    for (const c of cases) await check(w, c);
  };
  // A project's file not trusted: every row says so, with what its server would run.
  const ask = { MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "ask" };
  const untrusted = (rows: Doc[]) => rows.filter((r) => r.untrusted ?? r.unavailable?.runnable);

  await t.step("discovery: ls, search, types, catalog, scripts, config, client", async () => {
    await runAll([
      // First, while no daemon runs: status then reads the rows from the configuration.
      {
        op: discovery.ls,
        args: ["ls"],
        env: ask,
        says: (d) => untrusted(d.namespaces).length === 4,
      },
      {
        op: engine.status,
        args: ["status"],
        env: ask,
        says: (d) => !d.daemon && untrusted(d.servers).length === 4,
      },
      {
        op: discovery.ls,
        args: ["ls"],
        says: (d) =>
          d.namespaces.filter((n: Doc) => n.tools > 0).length === 3 &&
          d.namespaces.filter((n: Doc) => n.state === "error" && n.error).length === 2,
      },
      {
        op: discovery.search,
        args: ["search", "read", "file"],
        says: (d) => d.hits.length > 0 && d.types.refs.length > 0,
      },
      {
        op: discovery.search,
        args: ["search", "--explain", "echo"],
        says: (d) => d.hits[0].explain.length > 0,
      },
      {
        op: discovery.search,
        args: ["search", "zzqqxx"],
        says: (d) => d.hits.length === 0 && d.unlisted.length === 2,
      },
      {
        op: discovery.types,
        args: ["types", "everything.echo", "fs"],
        says: (d) =>
          d.namespaces.length === 2 &&
          d.namespaces[1].tools.some((tool: Doc) => tool.declaration && tool.inputSchema.type),
      },
      { op: discovery.catalog, args: ["catalog"], says: (d) => d.shown > 0 && d.text },
      {
        op: discovery.scripts,
        args: ["scripts"],
        says: (d) => d.scripts.some((s: Doc) => s.name === "probe" && s.description),
      },
      {
        op: discovery.config,
        args: ["config"],
        says: (d) => d.fingerprint && d.settings.some((s: Doc) => s.name === "search.limit"),
      },
      {
        op: discovery.config,
        args: ["config", "--schema", "--plumbing"],
        says: (d) =>
          d.settings.some((s: Doc) => s.plumbing) && d.settings.some((s: Doc) => s.values),
      },
      {
        op: discovery.client,
        args: ["client", "-o", "out/"],
        says: (d) => d.written && d.namespaces === 5 && d.path.endsWith("out/mcpx-client.ts"),
      },
    ]);
  });

  await t.step("engine: call, status, refresh, restart, session, daemons", async () => {
    await runAll([
      {
        op: engine.call,
        args: ["call", "everything.echo", '{"message":"json"}'],
        says: (d) => d.content[0].type === "text" && /json/.test(d.content[0].text),
      },
      // A tool's error is a document too (exit 1), and gives the log's errors view a row.
      { op: engine.call, args: ["call", "everything.echo", "{}"], code: 1, says: (d) => d.isError },
      {
        op: engine.status,
        args: ["status"],
        says: (d) =>
          d.daemon && d.servers.some((s: Doc) => s.instances.length > 0) &&
          d.servers.some((s: Doc) => s.cacheError ?? s.failure) &&
          d.servers.some((s: Doc) => s.unavailable?.code === "unset-variable"),
      },
      {
        op: engine.refresh,
        args: ["refresh", "memory"],
        says: (d) => d.servers.memory.tools > 0,
      },
      {
        op: engine.refresh,
        args: ["refresh", "broken"],
        code: 1,
        says: (d) => d.servers.broken.error,
      },
      {
        op: engine.restart,
        args: ["restart", "memory"],
        says: (d) => d.namespace === "memory",
      },
      {
        op: engine.restart,
        args: ["restart", "memory", "--session", "k1"],
        says: (d) => d.session === "k1",
      },
      {
        op: engine.session,
        args: ["session", "new", "--name", "s1", "--ttl", "30m"],
        says: (d) => d.name === "s1" && d.ttlMs === 1_800_000,
      },
      {
        op: engine.session,
        args: ["session", "ls"],
        says: (d) => d.sessions.some((s: Doc) => s.name === "s1"),
      },
      { op: engine.session, args: ["session", "end", "s1"], says: (d) => d.name === "s1" },
      { op: engine.daemons, args: ["daemons"], says: (d) => d.daemons.length === 1 },
    ]);
  });

  await t.step("trust, trust --list, untrust", async () => {
    await runAll([
      {
        op: engine.trust,
        args: ["trust"],
        says: (d) => d.recorded && d.servers.length === 5 && d.servers[0].runnable.command,
      },
      {
        op: engine.trust,
        args: ["trust", "--list"],
        says: (d) => d.files.length === 1 && d.files[0].state === "current",
      },
      { op: engine.untrust, args: ["untrust"], says: (d) => d.removed },
    ]);
  });

  await t.step("scripts: run and exec print their envelope", async () => {
    await runAll([
      {
        op: scripts.run,
        args: ["run", "probe"],
        says: (d) =>
          d.ok && d.result.echoed.includes("probe") && d.results.length === 1 &&
          d.logs.some((l: Doc) => l.msg === "probing 1"),
      },
      {
        op: scripts.exec,
        args: ["exec", 'everything.echo({ message: "inline" })'],
        says: (d) => d.ok && String(d.result).includes("inline"),
      },
    ]);
  });

  await t.step("log: records, calls, a chain, sql, its schema and path", async () => {
    await runAll([
      {
        op: logs.log,
        args: ["log", "--event", "call.end"],
        retry: true,
        says: (d) => d.records.length > 0,
      },
      { op: logs.log, args: ["log", "--chain"], retry: true, says: (d) => d.calls.length > 0 },
    ]);
    const { calls } = await documentOf(w, logs.log.output, ["log", "--chain"]);
    await runAll([
      {
        op: logs.log,
        args: ["log", "--chain", calls[0].call],
        says: (d) => d.chain.some((e: Doc) => e.record.event === "call.end"),
      },
      {
        op: logs.log,
        args: ["log", "sql", "SELECT event, count(*) AS n FROM records GROUP BY 1"],
        says: (d) => d.columns.length === 2 && d.rows.length > 0,
      },
      {
        op: logs.log,
        args: ["log", "sql", "SELECT id FROM records", "--log-sql-max-rows", "1"],
        says: (d) => d.rows.length === 1 && d.stopped.limit === "rows",
      },
      { op: logs.log, args: ["log", "sql", "--schema"], says: (d) => d.schema.length > 0 },
      { op: logs.log, args: ["log", "sql", "--path"], says: (d) => d.path.endsWith("index.db") },
    ]);
  });

  await t.step("log -f: one record per line, each a log record", async () => {
    await using follower = backgroundMcpx(w, ["--json", "log", "-f", "-n", "2"]);
    const lines = () => follower.output().split("\n").filter((l) => l.startsWith("{"));
    assert.ok(await eventually(() => lines().length >= 2, 20_000), follower.output());
    for (const line of lines()) {
      const parsed = logs.log.output.safeParse(JSON.parse(line));
      assert.ok(parsed.success, `${line}\n${parsed.success ? "" : z.prettifyError(parsed.error)}`);
      assert.ok(JSON.parse(line).event, line);
    }
  });

  await t.step("stats: every view", async () => {
    await runAll(STATS_VIEWS.map((view) => ({
      op: logs.stats,
      args: ["stats", view],
      retry: true,
      says: (d: Doc) => d.view === view && (view === "volume" ? d.hours : d.rows).length > 0,
    })));
  });

  await t.step("an error is the error document, whatever the command", async () => {
    const doc = await documentOf(w, ErrorDocument, ["types", "nosuch"], { code: 1 });
    assert.equal(doc.error.code, "not-found", JSON.stringify(doc));
  });

  await t.step("stop", async () => {
    await check(w, { op: engine.stop, args: ["stop"], says: (d) => d.stopped === 1 });
  });
});

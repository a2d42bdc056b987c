/**
 * Tool filters and the profile selection hold on every path to the daemon
 * (issue 9, "Nobody else gets in"; decision 0015): `mcpx call`, a script's
 * generated client under `mcpx run` and `mcpx exec`, and a raw request on the
 * socket. A hidden tool (`excludeTools`, an alias's `tools` subset) and a
 * namespace outside the selection are refused by each path with one error:
 * the same code and message. Against the real server-everything. And every
 * surface that lists tools leaves a hidden one out (issue 24): `ls`,
 * `search`, `types`, `catalog`, the `/v1` routes, the generated client and
 * `serve --passthrough`.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mcpxArgv, SERVERS, world } from "./_helpers.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { McpxError } from "../core/errors.ts";
import { VERSION } from "../core/version.ts";

const [command, ...args] = SERVERS.everything;

/** What one path made of one call: the result's text, or the refusal. */
type Outcome = { ok: true; text: string } | { ok: false; code: string; message: string };

/** [namespace, tool as the caller spells it, why] */
const REFUSED: [string, string, string][] = [
  ["everything", "get-tiny-image", "excludeTools"],
  ["everything", "get_tiny_image", "excludeTools, identifier spelling"],
  ["peek", "get-sum", "outside the alias's tools"],
  ["web", "echo", "namespace outside the selected profiles"],
];
const ALLOWED: [string, string][] = [["everything", "echo"], ["peek", "echo"]];
const ARGS = { message: "hi", a: 1, b: 2 };
/** A daemon search that finds the hidden tool's words, were it listed. */
const SEARCH = { words: ["tiny", "image"], limit: 50 };

/** A script calling through its generated client's callTool, printing one Outcome per call. */
const PROBE = (calls: [string, string][], client: string) => `
const { callTool } = await import(${client});
const out = [];
for (const [ns, tool] of ${JSON.stringify(calls)}) {
  try {
    out.push({ ok: true, text: String(await callTool(ns, ns, tool, ${JSON.stringify(ARGS)})) });
  } catch (e) {
    out.push({ ok: false, code: e.code, message: e.message });
  }
}
console.log(JSON.stringify(out));
`;

Deno.test("a hidden tool or an unselected namespace is refused the same way by every path", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: { command, args, mcpx: { excludeTools: ["get-tiny-image"] } },
      peek: { aliasOf: "everything", mcpx: { tools: ["echo"] } },
      web: { aliasOf: "everything", mcpx: { tools: ["echo"], profiles: ["web"], default: false } },
    },
  });
  const calls: [string, string][] = [
    ...REFUSED.map(([n, t]) => [n, t] as [string, string]),
    ...ALLOWED,
  ];

  const viaCli = async (flags: string[] = []): Promise<Outcome[]> => {
    const out: Outcome[] = [];
    for (const [ns, tool] of calls) {
      const r = await w.mcpx(["--json", ...flags, "call", `${ns}.${tool}`, JSON.stringify(ARGS)]);
      const doc = JSON.parse(r.stdout);
      out.push(
        r.code === 0
          ? { ok: true, text: doc.content[0].text }
          : { ok: false, code: doc.error.code, message: doc.error.message },
      );
    }
    return out;
  };
  const viaScript = async (how: "run" | "exec", flags: string[] = []): Promise<Outcome[]> => {
    let r;
    if (how === "run") {
      await Deno.writeTextFile(`${w.dir}/probe.ts`, PROBE(calls, '"./mcpx-client.ts"'));
      r = await w.mcpx([...flags, "run", "./probe.ts"]);
    } else {
      r = await w.mcpx([...flags, "exec", "-"], {
        stdin: PROBE(calls, 'Deno.env.get("MCPX_CLIENT")!') + "undefined\n",
      });
    }
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split("\n")[0]);
  };
  const viaSocket = async (selection?: unknown): Promise<Outcome[]> => {
    const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"]);
    assert.equal(daemons.length, 1);
    const out: Outcome[] = [];
    for (const [namespace, tool] of calls) {
      try {
        const result = await requestDaemon<{ content: { text: string }[] }>(
          daemons[0].socket,
          "call",
          { target: `${namespace}.${tool}`, arguments: ARGS, ...(selection ? { selection } : {}) },
          { version: VERSION },
        );
        out.push({ ok: true, text: result.content[0].text });
      } catch (error) {
        if (!(error instanceof McpxError)) throw error;
        out.push({ ok: false, code: error.code, message: error.message });
      }
    }
    return out;
  };

  const cli = await viaCli();
  await t.step("mcpx call refuses each and runs the visible ones", () => {
    REFUSED.forEach(([ns, tool, why], i) => {
      const o = cli[i];
      assert.ok(!o.ok, `${ns}.${tool} (${why}) ran through mcpx call`);
      assert.equal(o.code, "not-found");
    });
    assert.match((cli[0] as { message: string }).message, /hidden by the configuration/);
    assert.match((cli[3] as { message: string }).message, /outside the selected profiles/);
    for (const o of cli.slice(REFUSED.length)) assert.ok(o.ok, JSON.stringify(o));
  });

  for (
    const [name, paths] of [
      ["mcpx run (the generated client)", () => viaScript("run")],
      ["mcpx exec (the generated client)", () => viaScript("exec")],
      ["a raw request on the socket", () => viaSocket()],
    ] as const
  ) {
    await t.step(`${name} gives the same refusals and the same answers`, async () => {
      const got = await paths();
      calls.forEach(([ns, tool], i) => {
        if (cli[i].ok) {
          assert.ok(got[i].ok, `${ns}.${tool}: ${JSON.stringify(got[i])}`);
          assert.match((got[i] as { text: string }).text, /Echo: hi/);
        } else {
          assert.deepEqual(got[i], cli[i], `${ns}.${tool}`);
        }
      });
    });
  }

  await t.step(
    "the caller's selection reaches the daemon: under --profile web, web.echo runs",
    async () => {
      const web = calls.findIndex(([ns]) => ns === "web");
      const cliWeb = await w.mcpx(["--profile", "web", "call", "web.echo", JSON.stringify(ARGS)]);
      assert.equal(cliWeb.code, 0, cliWeb.stderr);
      const run = await viaScript("run", ["--profile", "web"]);
      assert.ok(run[web].ok, JSON.stringify(run[web]));
      const raw = await viaSocket({ profiles: ["web"] });
      assert.ok(raw[web].ok, JSON.stringify(raw[web]));
      // A selection does not lift a filter: the hidden tools stay hidden.
      assert.ok(!raw[0].ok && !raw[2].ok, JSON.stringify(raw));
    },
  );

  await t.step("a malformed selection is refused, naming the field", async () => {
    const [bad] = await viaSocket({ profiles: "web" }).then((o) => o.slice(REFUSED.length));
    assert.ok(!bad.ok);
    assert.equal(bad.code, "usage");
    assert.match(bad.message, /"selection\.profiles" must be an array/);
  });

  await t.step("every surface that lists tools leaves the hidden tool out", async () => {
    // Each surface's whole answer, by name: not one of them may name the hidden tool.
    const shown: [string, string][] = [];
    for (
      const args of [
        ["--json", "ls"],
        ["--json", "search", "tiny", "image"],
        ["search", "tiny", "image"],
        ["types", "everything"],
        ["--json", "types", "everything"],
        ["catalog", "--budget", "100000"],
      ]
    ) {
      const r = await w.mcpx(args);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      shown.push([args.join(" "), r.stdout]);
    }
    // The generated client the `mcpx run` step above wrote beside the script.
    shown.push(["the generated client", await Deno.readTextFile(`${w.dir}/mcpx-client.ts`)]);
    const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"]);
    const socket = daemons[0].socket;
    const view = await requestDaemon<{ namespaces: { tools: unknown[] }[] }>(
      socket,
      "namespaces",
      {},
      { version: VERSION },
    );
    // Its namespaces' tools (`excluded` names the hidden ones, so a refusal can say why).
    shown.push(["/v1/namespaces", JSON.stringify(view.namespaces.map((ns) => ns.tools))]);
    const found = await requestDaemon(socket, "search", SEARCH, { version: VERSION });
    shown.push(["/v1/search", JSON.stringify(found)]);
    const client = new Client({ name: "filters-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: mcpxArgv(["serve", "--passthrough", "everything"]).slice(1),
        cwd: w.dir,
        env: w.env,
        stderr: "inherit",
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "echo"), "the visible tools are served");
      shown.push(["serve --passthrough", JSON.stringify(tools)]);
      const refused = await client.callTool({ name: "get-tiny-image", arguments: {} })
        .then((r) => JSON.stringify(r), (e) => String(e));
      assert.match(refused, /hidden by the configuration/, "calling it through serve is refused");
    } finally {
      await client.close();
    }
    for (const [surface, text] of shown) {
      assert.doesNotMatch(text, /get[-_]tiny[-_]image/i, `${surface} lists the hidden tool`);
    }
  });

  await t.step("status and refresh answer without the hidden tools' names or schemas", async () => {
    for (const args of [["status"], ["refresh"]]) {
      const r = await w.mcpx(["--json", ...args]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /tiny|inputSchema/, args[0]);
    }
  });
});

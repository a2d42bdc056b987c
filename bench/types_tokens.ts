/**
 * `deno task bench:types`: what `mcpx types <namespace>` costs an agent, in
 * bytes and tokens, for four real servers, printed by this checkout (after)
 * and by an earlier revision (before, default a329995: the code before issue
 * 8's "Token economy of `types`"), next to what the peer prints for the same
 * servers (`mcporter list <server>`).
 *
 * Tokens are bytes / 4, rounded up: the ratio issue 8 measures the walk with.
 * (`mcpx catalog` and the search hint count bytes / 3, a deliberate
 * over-estimate; docs/decisions/0003-token-count.md.)
 *
 * Nothing here needs a browser: chrome-devtools-mcp answers `tools/list`
 * without starting Chromium. Each side gets its own XDG folders, so the two
 * revisions never share a daemon or a schema cache (both are version 0.1.0).
 *
 * Flags: --before <rev> (default a329995), --skip-peer, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { markdownTable } from "./stats.ts";
import { choosePeer } from "./peer.ts";
import { helpAndExit, log } from "./_cli.ts";
import { ROOT } from "./_paths.ts";
import { writeResults } from "./_report.ts";
import { type Exec, failed, output } from "./_world.ts";
import { extractRevision, scratch, side, sideEnv } from "./_sides.ts";
import { chromeDevtoolsServer, SERVERS } from "../dev/real_servers.ts";

const USAGE = `usage: deno task bench:types [--before <rev>] [--skip-peer]

  --before <rev>  the revision whose \`mcpx types\` is "before" (default a329995)
  --skip-peer     do not install or run mcporter`;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    before: { type: "string", default: "a329995" },
    "skip-peer": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
helpAndExit(flags.help, USAGE);

/** The servers measured: server key (mcporter's name) → mcpx namespace. */
const NAMESPACES: Record<string, string> = {
  everything: "everything",
  filesystem: "filesystem",
  memory: "memory",
  "chrome-devtools": "chrome_devtools",
};

const bytes = (text: string) => new TextEncoder().encode(text).length;
/** Tokens as issue 8 counts them: UTF-8 bytes / 4, rounded up. */
const tokens = (n: number) => Math.ceil(n / 4);
const thousands = (n: number) => n.toLocaleString("en-US");

const { tmp, marker, cleanup, removeListeners } = await scratch("mcpx_bench_types_", async () => {
  for (const s of [before, after]) {
    await output(s.mcpx("stop"), s.env(config), tmp, 30_000).catch(() => {});
  }
  // mcporter keeps chrome-devtools in a keep-alive daemon of its own after `list`.
  if (peerArgv) {
    await output(peerArgv("daemon", "stop"), peerEnv, tmp, 30_000).catch(() => {});
  }
});

/** What every side's environment adds: the bench's one config. */
const config = { MCPX_CONFIG: `${tmp}/mcp.json` };
/** The "before" revision's mcpx, run from its source extracted into `<tmp>/before/`. */
const before = side("before", `${tmp}/before/`, tmp, marker);
const after = side("after", ROOT, tmp, marker);
/** The peer's environment: XDG folders of its own, the same config and marker. */
const peerEnv = sideEnv("peer", tmp, marker)(config);

/** argv of a mcporter command on the bench's config, once the peer is installed. */
let peerArgv: ((...args: string[]) => string[]) | undefined;

async function run(argv: string[], e: Record<string, string>, timeoutMs = 300_000): Promise<Exec> {
  try {
    return await output(argv, e, tmp, timeoutMs);
  } catch (error) {
    return { code: -1, stdout: "", stderr: String(error) };
  }
}

interface Row {
  server: string;
  namespace: string;
  tools?: number;
  before?: number;
  after?: number;
  peer?: number;
  problems: string[];
}

try {
  // One plain `.mcp.json`-style file for both tools (`imports: []` keeps mcporter from
  // merging editor configs); the browser entry is the walk's, without mcpx's own block.
  await Deno.mkdir(`${tmp}/files`);
  const { mcpx: _ignored, ...chrome } = chromeDevtoolsServer({ tmpDir: tmp });
  const server = (argv: readonly string[]) => ({ command: argv[0], args: argv.slice(1) });
  await Deno.writeTextFile(
    `${tmp}/mcp.json`,
    JSON.stringify(
      {
        mcpServers: {
          everything: server(SERVERS.everything),
          filesystem: {
            ...server(SERVERS.filesystem),
            args: [...SERVERS.filesystem.slice(1), `${tmp}/files`],
          },
          memory: server(SERVERS.memory),
          "chrome-devtools": chrome,
        },
        imports: [],
      },
      null,
      2,
    ) + "\n",
  );

  log(`before: extracting ${flags.before} (git archive)`);
  await extractRevision(flags.before, tmp);
  const commit = new TextDecoder().decode(
    (await new Deno.Command("git", { args: ["-C", ROOT, "rev-parse", "--short", "HEAD"] }).output())
      .stdout,
  ).trim();

  const rows: Row[] = Object.entries(NAMESPACES).map(([server, namespace]) => ({
    server,
    namespace,
    problems: [],
  }));

  for (const { name: side, mcpx: argv, env } of [before, after]) {
    log(`${side}: listing the servers once (mcpx ls; first run may fetch them with npx)`);
    const ls = await run(argv("--json", "ls"), env(config));
    if (ls.code !== 0) throw new Error(`${side}: mcpx ls ${failed(ls)}`);
    const listed = JSON.parse(ls.stdout).namespaces as { namespace: string; tools: number }[];
    for (const row of rows) {
      const types = await run(argv("types", row.namespace), env(config), 120_000);
      if (types.code !== 0) {
        row.problems.push(`${side}: ${failed(types)}`);
        continue;
      }
      row[side] = bytes(types.stdout);
      row.tools = listed.find((n) => n.namespace === row.namespace)?.tools;
    }
    await run(argv("stop"), env(config), 30_000);
  }

  const { peer, problem } = await choosePeer(flags["skip-peer"], { logUnavailable: true });
  if (peer) {
    log(`peer: mcporter ${peer.version} list <server>`);
    const argv = (
      ...args: string[]
    ) => [peer.node, peer.bin, "--config", `${tmp}/mcp.json`, ...args];
    peerArgv = argv;
    for (const row of rows) {
      const list = await run(argv("list", row.server), peerEnv, 120_000);
      if (list.code !== 0) row.problems.push(`mcporter: ${failed(list)}`);
      else row.peer = bytes(list.stdout);
    }
  }

  const cell = (
    n?: number,
  ) => (n === undefined ? "—" : `${thousands(n)} / ${thousands(tokens(n))}`);
  const change = (r: Row) =>
    r.before && r.after ? `${Math.round((r.after / r.before - 1) * 100)}%` : "—";
  const table = markdownTable(
    [
      "namespace",
      "tools",
      `before (${flags.before}) bytes / tokens`,
      `after (${commit}) bytes / tokens`,
      "change",
      "mcporter list bytes / tokens",
    ],
    rows.map((r) => [
      r.namespace,
      String(r.tools ?? "—"),
      cell(r.before),
      cell(r.after),
      change(r),
      cell(r.peer),
    ]),
  );
  const notes = [
    "Tokens are UTF-8 bytes / 4, rounded up (issue 8's measure).",
    "mcpx: `mcpx types <namespace>`; mcporter: `mcporter list <server>` " +
    "(no defaults or output types; every tool, including ones mcpx leaves out as unusable).",
    ...(problem ? [`mcporter not measured: ${problem}`] : []),
    ...rows.flatMap((r) => r.problems.map((p) => `${r.namespace}: ${p}`)),
  ];
  const markdown = `${table}\n\n${notes.map((n) => `- ${n}`).join("\n")}`;
  console.log(markdown);
  const report = await writeResults("types_tokens", markdown + "\n", {
    before: flags.before,
    after: commit,
    rows,
  });
  log(`results: ${report}`);
} finally {
  await cleanup();
  removeListeners();
}

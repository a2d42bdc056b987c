/**
 * The rows of `deno task bench` (bench/run.ts; private to bench/): the
 * floors and the jobs, each with what mcpx, the peer and the floor run and
 * what a correct run prints (bench/README.md, "The jobs").
 *
 * @module
 */

import type { Summary } from "./stats.ts";
import { ROOT } from "./_paths.ts";
import { CALL_ARGS, mcpx, type World } from "./_world.ts";

/** One side (mcpx, peer or floor) of one row. */
export interface Side {
  argv: string[];
  env: Record<string, string>;
  /** Starts an MCP server on every run: --slow-runs (also chosen when the checked run is slow). */
  slow?: boolean;
  prepare?: string[];
  /** What a correct run prints on stdout (checked once before timing). */
  expect?: RegExp;
  /** Set once measured. */
  result?: { summary: Summary; timesMs: number[]; runs: number; warmup: number } | {
    error: string;
  };
}

/** One row of the table. */
export interface Row {
  id: string;
  label: string;
  kind: "floor" | "job";
  mcpx?: Side;
  /** The peer's equivalent, or why it has none. */
  peer?: Side | { na: string };
  /** For floor rows: the measured floor. */
  floor?: Side;
}

/** What `mcpx ls` prints once the server is listed. */
export const LS_OK = /everything[\s\S]*ready/;
/** What `mcpx search echo` prints: the tool found. */
export const SEARCH_OK = /everything\.echo/;
/** What `mcpx types everything` (or `everything.echo`) prints: echo's signature. */
export const TYPES_OK = /function echo/;
/** What `call everything.echo` prints, for mcpx and the peer alike. */
export const CALL_OK = /Echo: hi/;
const PEER_LS_OK = /everything \(13 tools/;
const PEER_TYPES_OK = /function echo\(message: string\)/;

const NO_SEARCH = "mcporter has no search command (closest: read `mcporter list <server>`)";

/** The rows of one run, in the world's temporary folder and environments. */
export interface LatencyRows {
  /** `deno run -A empty.ts`. */
  floorDeno: Row;
  /** `deno run -A --config deno.json empty.ts`: the ratio base. */
  floorDenoConfig: Row;
  /** `mcpx --version`. */
  startup: Row;
  /** `node empty.mjs`. */
  floorNode: Row;
  /** `node empty.mjs` with NODE_EXTRA_CA_CERTS as set, when the world removed it. */
  floorNodeCa?: Row;
  /** Every floor row, in table order. */
  floors: Row[];
  /** The jobs, in table order; the peer's argv is empty until {@link fillPeer}. */
  jobs: Row[];
  /** The job whose id is `id`. */
  job(id: string): Row;
  /** The peer side of the job whose id is `id` (one that has an equivalent). */
  peerSide(id: string): Side;
  /** Fills in the peer's argv, once the peer is installed (`world.peer`). */
  fillPeer(): void;
}

/**
 * The floors and jobs of `world`: floors run `empty.ts`/`empty.mjs` in its
 * temporary folder (the bench writes them), mcpx and the peer run on its
 * config.
 */
export function latencyRows(world: World): LatencyRows {
  const { tmp, original, env, keepAliveEnv, caStripped, mcporter } = world;
  const floorDeno: Row = {
    id: "floor-deno",
    label: "floor: deno run -A empty.ts",
    kind: "floor",
    floor: { argv: [Deno.execPath(), "run", "-A", `${tmp}/empty.ts`], env },
  };
  const floorDenoConfig: Row = {
    id: "floor-deno-config",
    label: "floor: deno run -A --config deno.json empty.ts (ratio base)",
    kind: "floor",
    floor: {
      argv: [Deno.execPath(), "run", "-A", "--config", `${ROOT}deno.json`, `${tmp}/empty.ts`],
      env,
    },
  };
  const startup: Row = {
    id: "mcpx-version",
    label: "mcpx --version (module graph + start, no work)",
    kind: "floor",
    mcpx: { argv: mcpx("--version"), env, expect: /mcpx/ },
  };
  const floorNode: Row = {
    id: "floor-node",
    label: "peer's floor: node empty.mjs",
    kind: "floor",
    peer: { argv: ["node", `${tmp}/empty.mjs`], env },
  };
  const floorNodeCa: Row | undefined = caStripped
    ? {
      id: "floor-node-ca-certs",
      label: "peer's floor: node empty.mjs, NODE_EXTRA_CA_CERTS as set",
      kind: "floor",
      peer: {
        argv: ["node", `${tmp}/empty.mjs`],
        env: { ...env, NODE_EXTRA_CA_CERTS: original.NODE_EXTRA_CA_CERTS },
      },
    }
    : undefined;

  const jobs: Row[] = [
    {
      id: "ls-warm",
      label: "ls — daemon warm",
      kind: "job",
      mcpx: { argv: mcpx("ls"), env, expect: LS_OK },
      peer: { argv: [], env: keepAliveEnv, expect: PEER_LS_OK },
    },
    {
      id: "search-warm",
      label: "search echo — daemon warm",
      kind: "job",
      mcpx: { argv: mcpx("search", "echo"), env, expect: SEARCH_OK },
      peer: { na: NO_SEARCH },
    },
    {
      id: "types-warm",
      label: "types everything — daemon warm",
      kind: "job",
      mcpx: { argv: mcpx("types", "everything"), env, expect: TYPES_OK },
      peer: { argv: [], env: keepAliveEnv, expect: PEER_TYPES_OK },
    },
    {
      id: "call-warm",
      label: "call everything.echo — daemon warm",
      kind: "job",
      mcpx: { argv: mcpx("call", "everything.echo", CALL_ARGS), env, expect: CALL_OK },
      peer: { argv: [], env: keepAliveEnv, expect: CALL_OK },
    },
    {
      id: "ls-none",
      label: "ls — no daemon",
      kind: "job",
      mcpx: { argv: mcpx("ls"), env, expect: LS_OK },
      peer: { argv: [], env, slow: true, expect: PEER_LS_OK },
    },
    {
      id: "search-none",
      label: "search echo — no daemon",
      kind: "job",
      mcpx: { argv: mcpx("search", "echo"), env, expect: SEARCH_OK },
      peer: { na: NO_SEARCH },
    },
    {
      id: "types-none",
      label: "types everything — no daemon",
      kind: "job",
      mcpx: { argv: mcpx("types", "everything"), env, expect: TYPES_OK },
      peer: { argv: [], env, slow: true, expect: PEER_TYPES_OK },
    },
    {
      id: "call-cold",
      label: "call everything.echo — no daemon (starts one)",
      kind: "job",
      mcpx: {
        argv: mcpx("call", "everything.echo", CALL_ARGS),
        env,
        slow: true,
        prepare: mcpx("stop"),
        expect: CALL_OK,
      },
      peer: { argv: [], env, slow: true, expect: CALL_OK },
    },
  ];
  const job = (id: string) => jobs.find((j) => j.id === id)!;
  const peerSide = (id: string) => job(id).peer as Side;

  return {
    floorDeno,
    floorDenoConfig,
    startup,
    floorNode,
    floorNodeCa,
    floors: [floorDeno, floorDenoConfig, startup, floorNode, ...(floorNodeCa ? [floorNodeCa] : [])],
    jobs,
    job,
    peerSide,
    fillPeer() {
      // The peer's floor runs the node the peer runs on (bench/peer.ts: perhaps npm's node 24).
      for (const floor of [floorNode, floorNodeCa]) {
        if (floor?.peer && "argv" in floor.peer) floor.peer.argv[0] = world.peer!.node;
      }
      peerSide("ls-warm").argv = mcporter("list");
      peerSide("types-warm").argv = mcporter("list", "everything", "--all-parameters");
      peerSide("call-warm").argv = mcporter("call", "everything.echo", "message=hi");
      peerSide("ls-none").argv = mcporter("list");
      peerSide("types-none").argv = mcporter("list", "everything", "--all-parameters");
      peerSide("call-cold").argv = mcporter("call", "everything.echo", "message=hi");
    },
  };
}

/**
 * The report of `deno task bench:scale` (bench/scale.ts; private to bench/):
 * its groups of rows (one per configuration), the tables, issue 11's targets,
 * the error notes and the results file's data.
 *
 * @module
 */

import { markdownTable, ms, ratio } from "./stats.ts";
import type { Side } from "./_latency_rows.ts";
import type { Target } from "./_report.ts";
import type { Configuration, DaemonFacts } from "./_scale_world.ts";

/** The jobs of a server-everything configuration: id and the words of the table. */
export const JOBS: [string, string][] = [
  ["ls", "ls"],
  ["search", "search echo"],
  ["types", "types everything"],
  ["call", "call everything.echo"],
];

/** A side that was not run, or a peer without an equivalent (and why). */
export type Cell = Side | { na: string } | undefined;

/** One job of a configuration: mcpx's side and the peer's. */
export interface Job {
  id: string;
  label: string;
  mcpx: Side;
  peer?: Side | { na: string };
}

/** One configuration's rows, measured together. */
export interface Group {
  c: Configuration;
  servers: number;
  /** Set for the one-server configuration of many tools. */
  tools?: number;
  /** The floor measured right before this configuration's rows. */
  floor: Side;
  jobs: Job[];
  /** The first `mcpx ls` (each server listed once), in ms. */
  warmMs?: number;
  daemon?: DaemonFacts;
  /** Bytes of the schema cache file this configuration's warm-up wrote. */
  cacheBytes?: number;
  /** The servers the peer's keep-alive daemon held. */
  kept?: string[];
  /** Why the configuration was not measured. */
  problem?: string;
}

/** The median of a measured side, in ms. */
export const median = (s: Cell): number | undefined =>
  s && "argv" in s && s.result && "summary" in s.result ? s.result.summary.median : undefined;

const cell = (s: Cell): string => {
  if (!s) return "—";
  if ("na" in s) return "n/a";
  if (!s.result) return "not run";
  if ("error" in s.result) return "error";
  return `${ms(s.result.summary.median)} (${ms(s.result.summary.p90)})`;
};

/** Every row: configuration, job, mcpx, peer and floor median (p90), and the three ratios. */
export function rowsTable(groups: Group[]): string {
  return markdownTable(
    [
      "configuration",
      "job",
      "mcpx median ms (p90)",
      "peer median ms (p90)",
      "floor median ms (p90)",
      "mcpx/floor",
      "peer/floor",
      "mcpx/peer",
    ],
    groups.flatMap((g) =>
      g.jobs.map((j) => {
        const [m, p, f] = [median(j.mcpx), median(j.peer), median(g.floor)];
        return [
          g.c.label,
          j.label,
          cell(j.mcpx),
          cell(j.peer),
          cell(g.floor),
          ratio(m, f),
          ratio(p, f),
          ratio(m, p),
        ];
      })
    ),
  );
}

/**
 * mcpx/floor per job at each server count, and the median at the largest
 * count ÷ at the smallest; empty with fewer than two counts.
 */
export function growthTable(groups: Group[]): string {
  const scaled = groups.filter((g) => g.tools === undefined && !g.problem);
  if (scaled.length < 2) return "";
  const [first, last] = [scaled[0], scaled.at(-1)!];
  const of = (g: Group, id: string) => median(g.jobs.find((j) => j.id === id)?.mcpx);
  return markdownTable(
    [
      "job",
      ...scaled.map((g) => `mcpx/floor, ${g.c.label}`),
      `mcpx ms: ${last.servers} ÷ ${first.servers} servers`,
    ],
    JOBS.map(([id, label]) => [
      label,
      ...scaled.map((g) => ratio(of(g, id), median(g.floor))),
      ratio(of(last, id), of(first, id)),
    ]),
  );
}

/** Per configuration: the warm-up, the schema cache, mcpx's daemon and servers, the peer's. */
export function configurationsTable(groups: Group[]): string {
  const mib = (x?: number) => x === undefined || !Number.isFinite(x) ? "—" : x.toFixed(0);
  return markdownTable(
    [
      "configuration",
      "first mcpx ls s",
      "schema index KiB",
      "mcpx daemon RSS MiB",
      "server process trees",
      "their RSS MiB",
      "peer keeps alive",
    ],
    groups.map((g) => [
      g.c.label,
      g.warmMs === undefined ? "—" : (g.warmMs / 1000).toFixed(1),
      g.cacheBytes === undefined ? "—" : (g.cacheBytes / 1024).toFixed(0),
      mib(g.daemon?.rssMiB),
      g.daemon ? String(g.daemon.serverTrees) : "—",
      mib(g.daemon?.serversRssMiB),
      g.kept ? String(g.kept.length) : "—",
    ]),
  );
}

/**
 * Issue 11's targets, each job against the floor measured beside it: within
 * 1.6× with 1 server, 1.7× with 100, 1.8× for `search` in the many-tool
 * server. Other server counts have none.
 */
export function scaleTargets(groups: Group[]): Target[] {
  const targets: Target[] = [];
  for (const g of groups) {
    const limit = g.tools !== undefined
      ? 1.8
      : g.servers === 1
      ? 1.6
      : g.servers === 100
      ? 1.7
      : undefined;
    if (limit === undefined) continue;
    const f = median(g.floor);
    for (const j of g.jobs) {
      const m = median(j.mcpx);
      targets.push({
        target: `warm \`${j.label}\`, ${g.c.label}: within ${limit}× of the floor`,
        status: m === undefined || f === undefined ? "n/a" : m <= limit * f ? "PASS" : "MISS",
        detail: `${ms(m ?? NaN)} ms vs ${limit} × ${ms(f ?? NaN)} ms = ${
          ms((f ?? NaN) * limit)
        } ms`,
      });
    }
  }
  return targets;
}

/** A note per configuration not measured and per side that failed, with its command. */
export function errorNotes(groups: Group[], show: (argv: string[]) => string): string[] {
  const notes: string[] = [];
  for (const g of groups) {
    if (g.problem) notes.push(`${g.c.label}: not measured — ${g.problem}`);
    const sides: [string, Cell][] = [
      ["floor", g.floor],
      ...g.jobs.flatMap((j): [string, Cell][] => [["mcpx", j.mcpx], ["peer", j.peer]]),
    ];
    for (const [who, s] of sides) {
      if (s && "argv" in s && s.result && "error" in s.result) {
        notes.push(
          `${g.c.label}, ${who} \`${show(s.argv)}\`: ERROR ${s.result.error.split("\n")[0]}`,
        );
      }
    }
  }
  return notes;
}

/** The results file's `configurations`: every side's command, times and ratios. */
export function groupsJson(groups: Group[], show: (argv: string[]) => string): unknown[] {
  const sideJson = (s: Cell) => {
    if (!s) return undefined;
    if ("na" in s) return { na: s.na };
    const r = s.result;
    const kept = s.env.MCPORTER_KEEPALIVE?.split(",").length;
    return {
      command: show(s.argv),
      ...(kept ? { keepalive: kept } : {}),
      ...(r && "summary" in r
        ? {
          median_ms: r.summary.median,
          p90_ms: r.summary.p90,
          mean_ms: r.summary.mean,
          runs: r.runs,
          warmup: r.warmup,
          times_ms: r.timesMs,
        }
        : { error: r && "error" in r ? r.error : "not run" }),
    };
  };
  const over = (a: Cell, b: Cell) => {
    const [x, y] = [median(a), median(b)];
    return x === undefined || y === undefined || y === 0 ? null : x / y;
  };
  return groups.map((g) => ({
    id: g.c.id,
    label: g.c.label,
    servers: g.servers,
    tools: g.tools,
    first_ls_ms: g.warmMs,
    schema_cache_bytes: g.cacheBytes,
    daemon: g.daemon,
    peer_keepalive: g.kept?.length,
    problem: g.problem,
    floor: sideJson(g.floor),
    jobs: g.jobs.map((j) => ({
      id: j.id,
      label: j.label,
      mcpx: sideJson(j.mcpx),
      peer: sideJson(j.peer),
      mcpx_over_floor: over(j.mcpx, g.floor),
      peer_over_floor: over(j.peer, g.floor),
      mcpx_over_peer: over(j.mcpx, j.peer),
    })),
  }));
}

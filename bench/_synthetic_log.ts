/**
 * A synthetic daemon log for `deno task bench:log` (bench/log_ingest.ts;
 * private to bench/), written as three daemons writing at once would write
 * it: each with its own files rotated at 10 MiB, `daemon.start`,
 * `server.start` and the occasional `server.exit` (idle or crash) and
 * restart, and pairs of `call.start`/`call.end` over 22 server/tool pairs
 * with long-tailed durations (to 0.1 ms), 40 sessions and 3% failed calls
 * (timeouts whose messages differ in their numbers). A seeded generator makes
 * every run write the same log (bench/README.md, "The log index").
 *
 * @module
 */

import {
  encodeRecord,
  type Level,
  type LogRecord,
  recordIds,
  renderTemplate,
} from "../logs/record.ts";

/** One daemon writing its files into `dir`, rotated at 10 MiB as the daemon's writer does. */
class Writer {
  #dir: string;
  #name: string;
  #seq = 0;
  #size = 0;
  #chunks: string[] = [];
  #next = recordIds();
  constructor(dir: string, name: string) {
    this.#dir = dir;
    this.#name = name;
  }
  write(r: Omit<LogRecord, "id" | "msg">): void {
    const line = encodeRecord({ ...r, id: this.#next(), msg: renderTemplate(r.template, r.attrs) });
    if (this.#size + line.length > 10 * 1024 * 1024) this.flush(true);
    this.#chunks.push(line);
    this.#size += line.length;
  }
  flush(rotate = false): void {
    if (this.#chunks.length) {
      Deno.writeTextFileSync(this.path, this.#chunks.join(""), { append: true });
      this.#chunks = [];
    }
    if (rotate) {
      this.#seq++;
      this.#size = 0;
    }
  }
  get path(): string {
    return `${this.#dir}/2026-10-01_${this.#name}_${this.#seq}.jsonl`;
  }
}

interface Daemon {
  writer: Writer;
  span: string;
  servers: { name: string; tools: string[]; instance: string; pid: number; base: number }[];
}

/** A log being written; see {@link syntheticLog}. */
export interface SyntheticLog {
  /** Records written so far (the daemons' and servers' starts included). */
  readonly written: number;
  /**
   * Appends `n` records (about n/2 calls) across the daemons, time moving
   * forward, and flushes every daemon's file.
   */
  generate(n: number): void;
}

/**
 * Starts the log in `dir` (which must exist): three daemons, each writing its
 * `daemon.start` and its servers' `server.start`. The clock starts at
 * 2026-10-01T00:00:00Z and the generator at seed 42.
 */
export function syntheticLog(dir: string): SyntheticLog {
  /** mulberry32: a small seeded generator, so every run writes the same log. */
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");

  let clock = Date.parse("2026-10-01T00:00:00.000Z");
  let written = 0;
  function record(
    d: Daemon,
    level: Level,
    event: string,
    template: string,
    attrs: Record<string, unknown>,
    span: string,
    parent?: string,
  ): void {
    d.writer.write({
      time: new Date(clock).toISOString(),
      level,
      event,
      template,
      span,
      ...(parent ? { parent } : {}),
      attrs,
    });
    written++;
  }

  function startDaemon(i: number): Daemon {
    const names = [["fs", "git", "memory"], ["browser", "search"], ["db", "http", "shell"]][i];
    const tools: Record<string, string[]> = {
      fs: ["read_file", "write_file", "list_directory", "search_files"],
      git: ["status", "diff", "log", "commit"],
      memory: ["read_graph", "create_entities", "search_nodes"],
      browser: ["navigate", "click", "take_screenshot", "evaluate_script"],
      search: ["web_search", "fetch"],
      db: ["query", "list_tables"],
      http: ["get", "post"],
      shell: ["run"],
    };
    const d: Daemon = {
      writer: new Writer(dir, `daemon-${hex(8)}-${1000 + i}`),
      span: `dmn-${hex(12)}`,
      servers: [],
    };
    record(d, "info", "daemon.start", "daemon {pid} started for {config}", {
      pid: 1000 + i,
      version: "0.1.0",
      mode: "auto",
      config: `/home/ada/project${i}/.mcp.json`,
    }, d.span);
    for (const name of names) {
      const server = {
        name,
        tools: tools[name],
        instance: `ins-${hex(12)}`,
        pid: 2000 + Math.floor(random() * 30000),
        base: 2 + random() * 200,
      };
      d.servers.push(server);
      record(
        d,
        "info",
        "server.start",
        "server {server} started as pid {pid} for {key} in {startMs} ms",
        {
          server: name,
          namespace: name,
          pid: server.pid,
          key: "global",
          transport: "stdio",
          command: `npx -y @example/${name}-server`,
          startMs: Math.round(200 + random() * 600),
        },
        server.instance,
        d.span,
      );
    }
    return d;
  }

  function call(d: Daemon): void {
    const s = d.servers[Math.floor(random() * d.servers.length)];
    const tool = s.tools[Math.floor(random() * s.tools.length)];
    const span = `cal-${hex(12)}`;
    const session = `s${Math.floor(random() * 40)}`;
    const about = {
      namespace: s.name,
      tool,
      server: s.name,
      session,
      bytesIn: 20 + Math.floor(random() * 400),
    };
    record(
      d,
      "info",
      "call.start",
      "{namespace}.{tool} called on {instance} ({key})",
      {
        ...about,
        key: "global",
        instance: s.instance,
        pid: s.pid,
        leaseMs: 0.1,
      },
      span,
      s.instance,
    );
    // Durations: the server's base times a long-tailed factor, to 0.1 ms.
    const duration = Math.round(s.base * (0.5 + -Math.log(1 - random() * 0.999)) * 10) / 10;
    clock += Math.ceil(duration);
    const end = { ...about, key: "global", instance: s.instance, ms: duration, leaseMs: 0.1 };
    if (random() < 0.03) {
      const error = `${s.name}.${tool} did not answer within ${
        Math.round(duration)
      } ms (callTimeout); the request was cancelled`;
      record(d, "warn", "call.end", "{namespace}.{tool} failed after {ms} ms: {error}", {
        ...end,
        ok: false,
        error,
        bytesOut: 0,
      }, span);
    } else {
      record(d, "info", "call.end", "{namespace}.{tool} answered in {ms} ms", {
        ...end,
        ok: true,
        bytesOut: 50 + Math.floor(random() * 20000),
      }, span);
    }
  }

  function restart(d: Daemon): void {
    const s = d.servers[Math.floor(random() * d.servers.length)];
    const why = random() < 0.3 ? "crash" : "idle";
    record(d, why === "crash" ? "warn" : "info", "server.exit", "server {server} exited ({why})", {
      server: s.name,
      pid: s.pid,
      key: "global",
      why,
      ...(why === "crash" ? { signal: "SIGKILL" } : { code: 0 }),
      uptimeMs: 3_600_000,
      calls: 100,
    }, s.instance);
    s.instance = `ins-${hex(12)}`;
    s.pid = 2000 + Math.floor(random() * 30000);
    record(
      d,
      "info",
      "server.start",
      "server {server} started as pid {pid} for {key} in {startMs} ms",
      {
        server: s.name,
        namespace: s.name,
        pid: s.pid,
        key: "global",
        transport: "stdio",
        command: `npx -y @example/${s.name}-server`,
        startMs: Math.round(200 + random() * 600),
      },
      s.instance,
      d.span,
    );
  }

  const daemons = [0, 1, 2].map(startDaemon);
  return {
    get written() {
      return written;
    },
    generate(n) {
      const target = written + n;
      while (written < target - 1) {
        const d = daemons[Math.floor(random() * daemons.length)];
        clock += Math.floor(random() * 20);
        if (random() < 0.0005) restart(d);
        else call(d);
      }
      while (written < target) {
        record(
          daemons[0],
          "debug",
          "daemon.tick",
          "reaper checked {n} pools",
          { n: 3 },
          daemons[0].span,
        );
      }
      for (const d of daemons) d.writer.flush();
    },
  };
}

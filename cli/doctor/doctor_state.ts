/**
 * The checks of `mcpx doctor` about what mcpx keeps: this configuration's
 * daemon (alive, version, socket mode), the log index, and the schema
 * cache's freshness. None starts a daemon or lists a server.
 * cli/doctor/doctor_checks.ts lists them in order.
 *
 * @module
 */

import { dirname } from "../../core/posix_path.ts";
import { type DoctorCheck, type Finding, NO_CONFIG_SKIP } from "./doctor_check.ts";
import { liveDaemons } from "../daemon/daemons.ts";
import { VERSION } from "../../core/version.ts";
import { directoryFinding } from "./doctor_system.ts";
import { indexPath, isDamagedIndex, openIndexReadOnly } from "../../logs/index_db.ts";
import { existsSync } from "../../core/exists.ts";
import { listingOf } from "../../config/types.ts";
import { needsListing } from "../../engine/schema_cache.ts";
import { lastFailure } from "../../discovery/cache_entry.ts";
import { own } from "../../core/own.ts";

/** How old a listing is before doctor mentions it, in ms (7 days). */
export const OLD_LISTING_MS = 7 * 86_400_000;

/** This configuration's daemon: alive, its version, its socket's mode. */
export const daemonCheck: DoctorCheck = {
  id: "daemon",
  title: "the daemon (alive, version, socket)",
  async run(dc) {
    const config = await dc.config();
    if (!config) return [NO_CONFIG_SKIP];
    const out: Finding[] = [];
    const endpoint = await dc.cli.endpoint().catch(() => undefined);
    if (endpoint) {
      out.push({
        status: "info",
        message: `daemon.endpoint is set: commands use the daemon at ${endpoint}, not a local one`,
      });
    }
    const live = (await liveDaemons(dc.cli.paths().stateDir))
      .filter((d) => d.fingerprint === config.fingerprint);
    if (live.length === 0) {
      out.push({
        status: "info",
        message: "no daemon runs for this configuration; the first command that needs one " +
          "starts it",
      });
      return out;
    }
    for (const d of live) {
      out.push({
        status: "ok",
        subject: `pid ${d.pid}`,
        message: `daemon pid ${d.pid}, version ${d.version}, ${d.mode}, started ${d.startedAt}`,
      });
      if (d.version !== VERSION) {
        out.push({
          status: "info",
          subject: `pid ${d.pid}`,
          message: `it is version ${d.version} and this mcpx is ${VERSION}; the next command ` +
            `that needs it replaces it`,
        });
      }
      const socketDir = directoryFinding(
        dirname(d.socket),
        "the daemon's socket",
        "set XDG_RUNTIME_DIR",
      );
      if (socketDir.status !== "ok") out.push(socketDir);
      let mode: number | null = null;
      try {
        mode = Deno.statSync(d.socket).mode;
      } catch { /* gone meanwhile */ }
      if (mode !== null && (mode & 0o077) !== 0) {
        out.push({
          status: "warn",
          subject: d.socket,
          message: `the daemon's socket has mode ${(mode & 0o777).toString(8)}: other users ` +
            `may connect to it`,
          fix: `chmod 600 '${d.socket}', then mcpx stop so the next daemon makes it private`,
        });
      }
    }
    return out;
  },
};

/** The log index opens and passes SQLite's quick check. */
export const logIndexCheck: DoctorCheck = {
  id: "log-index",
  title: "the log index",
  async run(dc) {
    let path: string;
    try {
      path = indexPath(await dc.cli.logsDir());
    } catch (error) {
      return [{
        status: "info",
        message: `skipped: the log directory could not be placed: ${(error as Error).message}`,
      }];
    }
    if (!existsSync(path)) {
      return [{
        status: "info",
        subject: path,
        message: "no log index yet; mcpx log and mcpx stats build it from the log files",
      }];
    }
    const damaged: Finding = {
      status: "fail",
      subject: path,
      message: `the log index ${path} is damaged`,
      fix: `run mcpx log: it moves the index aside and rebuilds it from the log files, ` +
        `losing nothing`,
    };
    let db;
    try {
      db = openIndexReadOnly(path);
    } catch (error) {
      return [
        isDamagedIndex(error) ? damaged : {
          status: "fail",
          subject: path,
          message: `cannot open the log index: ${(error as Error).message}`,
          fix: `check its permissions, or delete it (rm '${path}') to have it rebuilt`,
        },
      ];
    }
    try {
      const row = db.prepare("PRAGMA quick_check").get() as Record<string, unknown> | undefined;
      const verdict = row ? String(Object.values(row)[0]) : "";
      if (verdict !== "ok") return [{ ...damaged, message: `${damaged.message}: ${verdict}` }];
      return [{ status: "ok", subject: path, message: "the log index opens and checks clean" }];
    } catch (error) {
      return [
        isDamagedIndex(error) ? damaged : {
          status: "fail",
          subject: path,
          message: `cannot read the log index: ${(error as Error).message}`,
          fix: `delete it (rm '${path}') to have it rebuilt from the log files`,
        },
      ];
    } finally {
      db.close();
    }
  },
};

/** Every enabled server listed in the schema cache, recently, without a failure since. */
export const schemaCacheCheck: DoctorCheck = {
  id: "schema-cache",
  title: "the schema cache is fresh",
  async run(dc) {
    const config = await dc.config();
    if (!config) return [NO_CONFIG_SKIP];
    const servers = config.servers.filter((s) => !s.disabled && !s.unavailable);
    if (servers.length === 0) return [{ status: "info", message: "no enabled server to list" }];
    const index = await dc.cli.schemaCache();
    const out: Finding[] = [];
    const unlisted: string[] = [];
    const now = Date.now();
    for (const spec of servers) {
      const { name, listingId } = listingOf(spec);
      const entry = own(index?.servers, name);
      const failure = lastFailure(entry);
      if (failure) {
        out.push({
          status: "warn",
          subject: spec.name,
          message: `its last listing failed (${failure.at}): ${failure.message}`,
          fix:
            `mcpx status shows the server's stderr; after fixing, mcpx refresh ${spec.namespace}`,
        });
      } else if (needsListing(entry, listingId, now)) {
        unlisted.push(spec.name);
      } else if (entry?.listedAt && now - Date.parse(entry.listedAt) > OLD_LISTING_MS) {
        out.push({
          status: "info",
          subject: spec.name,
          message: `listed ${entry.listedAt}; a server updated since may have other tools ` +
            `(mcpx refresh ${spec.namespace} lists it again)`,
        });
      }
    }
    if (unlisted.length) {
      out.push({
        status: "info",
        subject: unlisted.join(", "),
        message: `${unlisted.length} server(s) not listed yet (or changed since): the next ` +
          `mcpx ls lists them`,
      });
    }
    const fresh = servers.length - unlisted.length -
      out.filter((f) => f.status === "warn").length;
    if (fresh > 0) {
      out.unshift({
        status: "ok",
        message: `${fresh} of ${servers.length} server(s) listed under their current settings`,
      });
    }
    return out;
  },
};

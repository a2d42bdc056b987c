/**
 * The settings of the daemon and of reaching it (`daemon.*`, `transport.*`),
 * and of `mcpx serve --http`'s sessions (`serve.*`),
 * declared here and spread into the one settings table (config/settings.ts),
 * which reads them like every other: a file's dotted path, an `MCPX_…`
 * variable, a `--flag`. Source: spec 000, "One daemon, many clients",
 * "Running without a daemon"; decisions 0046, 0051 and 0058.
 *
 * @module
 */

import type { SettingDeclaration } from "./setting_value.ts";

/** The daemon's and the transport's settings, in the order `mcpx config` lists them. */
export const DAEMON_SETTINGS = [
  {
    name: "daemon.idleTimeout",
    type: "duration",
    default: "4h",
    help: "An auto-started daemon with no requests for this long exits (0 = never)",
  },
  {
    name: "daemon.startWait",
    type: "duration",
    default: "10s",
    help: "How long the CLI waits for a daemon it started to answer before giving up",
  },
  {
    name: "daemon.address",
    type: "string",
    default: "127.0.0.1",
    userOnly: true,
    help: "Address `mcpx daemon --port` binds; beyond loopback needs transport.bearerToken",
  },
  {
    name: "daemon.port",
    type: "int",
    min: 0,
    default: "0",
    userOnly: true,
    help: "TCP port `mcpx daemon` also serves its /v1 API on (0 = none, its socket only)",
  },
  {
    name: "daemon.endpoint",
    type: "string",
    default: "",
    userOnly: true,
    help:
      "A daemon elsewhere, http://host:port or unix:///path, used by the CLI and scripts instead of this configuration's own; mcpx then never starts a daemon and fails when it does not answer",
  },
  {
    name: "daemon.inline",
    type: "bool",
    default: "false",
    flag: "--inline",
    help:
      "Run the daemon's handler inside each command instead of a daemon process, for a sandbox that cannot fork one: servers start and stop with every command and nothing is pooled between commands. The last resort; daemon.endpoint wins over it",
  },
  {
    name: "transport.bearerToken",
    type: "string",
    default: "",
    userOnly: true,
    secret: true,
    help:
      "Bearer token a TCP listener beyond loopback requires, and the one mcpx sends to daemon.endpoint; never shown by mcpx config",
  },
  {
    name: "transport.allowedHosts",
    type: "string",
    default: "",
    userOnly: true,
    help: "Host names (comma-separated) a TCP listener beyond loopback also answers to",
  },
  {
    name: "transport.allowedOrigins",
    type: "string",
    default: "",
    userOnly: true,
    help:
      "Browser origins (comma-separated, e.g. http://localhost:3000) a TCP listener admits besides its own; a request with another Origin is refused",
  },
  {
    name: "transport.headerTimeout",
    type: "duration",
    default: "10s",
    help:
      "A TCP listener closes a connection that has not sent a whole request head (request line and headers) this long after it began one, or that sends no byte of a request body for this long (0 = no limit)",
  },
  {
    name: "serve.sessionIdleTimeout",
    type: "duration",
    default: "30m",
    help:
      "A 2025-era `mcpx serve --http` session with no request for this long ends; its next request is told it expired (0 = never)",
  },
  {
    name: "serve.maxSessions",
    type: "int",
    min: 1,
    default: "1000",
    help:
      "Most 2025-era `mcpx serve --http` sessions open at once; one more is refused, saying so, until one ends or expires",
  },
] as const satisfies readonly SettingDeclaration[];

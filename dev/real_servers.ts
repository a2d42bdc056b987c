/**
 * The real MCP servers from npm that the tests and the benches start, pinned,
 * the way users start them: three of the reference servers, and
 * `chrome-devtools-mcp` driving Debian's `/usr/bin/chromium` headless from a
 * throw-away profile, one browser per session. Declared once here, below
 * both, so a bench measures the same servers a test checks and bench/
 * imports nothing from tests/ (issue 26).
 *
 * @module
 */

/** Pinned real servers from npm, started the way users start them: argv, command first. */
export const SERVERS = {
  everything: ["npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31"],
  filesystem: ["npx", "-y", "@modelcontextprotocol/server-filesystem@2026.8.31"],
  memory: ["npx", "-y", "@modelcontextprotocol/server-memory@2026.8.31"],
} as const;

/** The pinned npm package of the browser server (latest stable when the browser walk was written). */
export const CHROME_DEVTOOLS_MCP = "chrome-devtools-mcp@1.11.0";

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * The server entry for `chrome_devtools`.
 *
 * - `--headless --isolated`: no display; a temporary user-data-dir removed
 *   when the browser closes, so two instances never fight over a profile.
 * - `--chromeArg=--no-sandbox`: Chromium refuses to start as root with its
 *   sandbox on (CI containers run as root).
 * - `--chromeArg=--disable-background-networking`, `--no-usage-statistics`,
 *   `--no-performance-crux`: nothing leaves the machine.
 * - `--viewport=800x600`: small, fixed-size screenshots (the headless default
 *   here is 1905x2053).
 *
 * @param options `executablePath`: the browser (default {@link CHROMIUM});
 *   `tmpDir`: `TMPDIR` for the server, where the throw-away profile goes, so
 *   a test can tell its own browser processes by their `--user-data-dir`.
 * @returns an entry for `mcpServers`.
 */
export function chromeDevtoolsServer(
  options: { executablePath?: string; tmpDir?: string } = {},
): {
  command: string;
  args: string[];
  env?: Record<string, string>;
  mcpx: Record<string, unknown>;
} {
  const executablePath = options.executablePath ?? CHROMIUM;
  return {
    command: "npx",
    args: [
      "-y",
      CHROME_DEVTOOLS_MCP,
      "--headless",
      "--isolated",
      `--executablePath=${executablePath}`,
      "--chromeArg=--no-sandbox",
      "--chromeArg=--disable-background-networking",
      "--no-usage-statistics",
      "--no-performance-crux",
      "--viewport=800x600",
    ],
    ...(options.tmpDir ? { env: { TMPDIR: options.tmpDir } } : {}),
    mcpx: {
      namespace: "chrome_devtools",
      description: "drive a headless Chrome",
      sharing: "exclusive",
      scope: "session",
      startTimeout: "60s",
      callTimeout: "60s",
    },
  };
}

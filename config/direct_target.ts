/**
 * Direct targets: a server named on the command line instead of in a
 * configuration file (`mcpx ls https://host/mcp`, `mcpx call --stdio "cmd
 * args" tool '{…}'`). Each becomes a one-server configuration document that
 * mcpx writes itself (cli/direct_target.ts), so the target is pooled, listed,
 * typed, logged and redacted like any configured server (decision 0033).
 *
 * @module
 */

import { toIdentifier } from "./identifiers.ts";
import { shellWord, splitShellWords } from "./shell_word.ts";
import { canonicalJson } from "./_canonical_json.ts";

/** Programs that run another program named by their first plain argument (`npx -y pkg`). */
const RUNNERS = new Set([
  "npx",
  "bunx",
  "uvx",
  "pipx",
  "node",
  "deno",
  "bun",
  "python",
  "python3",
  "uv",
  "docker",
  "pnpm",
  "yarn",
  "npm",
  "env",
  "run",
  "dlx",
  "exec",
]);

/** A server named on the command line. */
export interface DirectTarget {
  /** The server's name in the generated document: the URL's host, or the program's name. */
  name: string;
  /** The namespace it is called by: {@link name} as an identifier (config/identifiers.ts). */
  namespace: string;
  /** The server entry, as a configuration file writes it (`url`/`headers`, or `command`/`args`/`cwd`). */
  entry: Record<string, unknown>;
  /** The target as messages show it: a URL without credentials or query values, or the command line. */
  shown: string;
}

/**
 * True when `word` names a remote server directly: an `http:` or `https:` URL.
 *
 * @example
 * ```ts
 * import { isDirectUrl } from "./direct_target.ts";
 * if (!isDirectUrl("https://mcp.example.com/mcp") || isDirectUrl("fs.read_file")) throw new Error();
 * ```
 */
export function isDirectUrl(word: string): boolean {
  return /^https?:\/\/[^\s]/i.test(word);
}

/**
 * The direct target of a Streamable HTTP or SSE server: named after the URL's
 * host and port (`mcp.example.com` → namespace `mcp_example_com`,
 * `127.0.0.1:3001` → `_127_0_0_1_3001`); a path ending in `/sse` selects SSE,
 * as in a configuration file.
 *
 * @param url The URL as typed; credentials in it are kept in the entry (sent
 *   as a Basic header: config/url_credentials.ts) and never shown.
 * @param headers `Name: value` lines (`--header`), sent with every request.
 * @throws {TypeError} When `url` is not a URL or a header line has no `:`, naming it and the fix.
 * @example
 * ```ts
 * import { urlTarget } from "./direct_target.ts";
 * const t = urlTarget("https://me:secret@mcp.example.com/mcp?key=abc", []);
 * if (t.namespace !== "mcp_example_com") throw new Error(t.namespace);
 * if (t.shown !== "https://mcp.example.com/mcp?key=…") throw new Error(t.shown);
 * ```
 */
export function urlTarget(url: string, headers: readonly string[]): DirectTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(
      `${JSON.stringify(shownUrl(url))} is not a URL; give the server's whole address, ` +
        `e.g. https://mcp.example.com/mcp`,
    );
  }
  const entry: Record<string, unknown> = { url };
  if (headers.length) entry.headers = Object.fromEntries(headers.map(headerOf));
  return { name: parsed.host, namespace: toIdentifier(parsed.host), entry, shown: shownUrl(url) };
}

/**
 * The direct target of a stdio server: `line` split into argv
 * (config/shell_word.ts `splitShellWords`, never a shell), started in `cwd`.
 * Named after the program it runs: the first plain word after the command
 * when the command is a runner (`npx -y @scope/server-x@1.2 stdio` →
 * `server-x`, `node ./srv/main.js` → `main`), else the command's own file
 * name (`./my-server --port 1` → `my-server`).
 *
 * @param line The command line (`--stdio "cmd args…"`).
 * @param cwd The directory it starts in (the caller's working directory).
 * @throws {TypeError} For a blank line or one with an unclosed quote, naming it.
 * @example
 * ```ts
 * import { stdioTarget } from "./direct_target.ts";
 * const t = stdioTarget("npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio", "/p");
 * if (t.namespace !== "server_everything") throw new Error(t.namespace);
 * ```
 */
export function stdioTarget(line: string, cwd: string): DirectTarget {
  let words: string[];
  try {
    words = splitShellWords(line);
  } catch (error) {
    throw new TypeError(`--stdio: ${(error as Error).message}`);
  }
  if (words.length === 0) {
    throw new TypeError(
      `--stdio needs a command line, got ${JSON.stringify(line)}; ` +
        `e.g. --stdio "npx -y @modelcontextprotocol/server-everything stdio"`,
    );
  }
  const [command, ...args] = words;
  const name = programName(words);
  return {
    name,
    namespace: toIdentifier(name),
    entry: { command, args, cwd },
    shown: line.trim(),
  };
}

/**
 * How long a direct target's daemon lives after its last request (setting
 * `daemon.idleTimeout`): long enough for `ls`, `types` and `call` of one
 * target in a row to share a warm server, short enough that a one-off target
 * leaves nothing running for long (issue 24; decision 0033). A call waiting
 * on a question keeps it up until answered (daemon/main.ts).
 */
export const DIRECT_IDLE_TIMEOUT = "1m";

/**
 * The configuration document of a direct target: its one server, and a
 * daemon that ends {@link DIRECT_IDLE_TIMEOUT} after its last request. Not
 * `daemon.inline`: a question a call raises is answered by a later command
 * (`mcpx elicit answer <id> --wait`), which must find the call still held.
 */
export function directDocument(target: DirectTarget): Record<string, unknown> {
  return {
    mcpServers: { [target.name]: target.entry },
    daemon: { idleTimeout: DIRECT_IDLE_TIMEOUT },
  };
}

/**
 * The file name of a target's document: a SHA-256 of its entry (URL and
 * headers, or command, arguments and directory), so each target has one
 * file, one fingerprint and one daemon, whatever the order of its headers.
 *
 * @returns e.g. `url-3f2a…(16 hex).json` or `stdio-….json`.
 */
export async function directFileName(target: DirectTarget): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(target.entry));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${"url" in target.entry ? "url" : "stdio"}-${hex}.json`;
}

/**
 * `url` as mcpx may print it: without user information, each query value
 * replaced by `…` (a token is often passed that way). Text that is not a URL
 * loses everything between `//` and an `@`.
 *
 * @example
 * ```ts
 * import { shownUrl } from "./direct_target.ts";
 * if (shownUrl("http://u:p@h:1/mcp?token=t&x=") !== "http://h:1/mcp?token=…&x=…") throw new Error();
 * ```
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//").replace(/\?.*$/, "?…");
  }
  parsed.username = "";
  parsed.password = "";
  const query = [...parsed.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=…`);
  parsed.search = "";
  return parsed.href + (query.length ? `?${query.join("&")}` : "");
}

/**
 * The target as a command line names it again: the URL without credentials
 * (they were typed once; mcpx does not print them back), or `--stdio '…'`.
 */
export function directSpelling(target: DirectTarget): string {
  return "url" in target.entry ? shellWord(target.shown) : `--stdio ${shellWord(target.shown)}`;
}

/**
 * What to check when a direct target failed to start or answer: one
 * sentence naming the target and the fix, printed after the failure itself
 * (whose "fix mcpServers.…" names the generated entry, which the user never wrote).
 */
export function directFix(target: DirectTarget): string {
  return "url" in target.entry
    ? `${target.shown} was named on the command line: check that the address is right, that ` +
      `the server is up, and that it speaks MCP there (Streamable HTTP, or SSE when the path ` +
      `ends in /sse); a server that wants credentials takes --header "Authorization: …"`
    : `--stdio ${shellWord(target.shown)} was named on the command line: check that this ` +
      `command line, run by itself, starts an MCP server on stdin/stdout (its words are split ` +
      `as a shell splits them, but no shell runs it: no $VAR, ~ or pipes)`;
}

/**
 * One `--header "Name: value"` line as its name and value, trimmed.
 *
 * @throws {TypeError} When the line has no `:` after a name, quoting its first word and the fix.
 */
export function headerOf(line: string): [string, string] {
  const colon = line.indexOf(":");
  if (colon <= 0) {
    throw new TypeError(
      `--header ${JSON.stringify(line.split(/\s/)[0])}… is not "Name: value"; ` +
        `e.g. --header "Authorization: Bearer $TOKEN"`,
    );
  }
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
}

function programName(words: string[]): string {
  const base = (word: string) => word.split("/").filter(Boolean).at(-1) ?? word;
  const clean = (word: string) => {
    // `@scope/pkg@1.2` → `pkg`; `main.js` → `main`; `pkg==1.0` → `pkg`.
    const name = base(word.replace(/(.)@[^/@]*$/, "$1").replace(/==.*$/, ""));
    return name.replace(/\.(m?[jt]s|py|cjs|sh)$/, "") || name;
  };
  let i = 0;
  while (i < words.length - 1 && RUNNERS.has(base(words[i]))) {
    i++;
    while (i < words.length - 1 && words[i].startsWith("-")) i++;
  }
  return clean(words[i]) || "stdio";
}

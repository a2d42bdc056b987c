/**
 * `mcpx auth <server|url>`, `--no-browser [--json]`, `--code CODE --state
 * STATE`, `mcpx auth ls`, `mcpx auth logout <server|url>`: OAuth 2.1 for a
 * remote server, authorized by a person once (spec 002, "OAuth"; decision
 * 0042). Only this command opens a browser: `call`, `ls` and the daemon
 * never do, they fail naming this command instead.
 *
 * The browser (`$BROWSER`, else `xdg-open`/`open`: cli/auth/browser.ts) is sent
 * back to a loopback port (127.0.0.1, a free port chosen now; RFC 8252 §7.3)
 * that this command listens on until the redirect comes or 5 minutes
 * (`--timeout`) pass. `--no-browser` prints the URL, that callback URL and
 * the state and exits; whoever opened the URL passes the `code` and `state`
 * of the page it was sent back to.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { auth } from "../../ops/auth_ops.ts";
import { McpxError, NotFoundError, UsageError } from "../../core/errors.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import { renderTable } from "../table.ts";
import type { ServerSpec } from "../../config/types.ts";
import type { ListResult } from "../../engine/tool_listing.ts";
import { isDirectUrl } from "../../config/direct_target.ts";
import { parseTimeoutFlag } from "../../config/timeout_flag.ts";
import { formatDuration } from "../../config/duration.ts";
import { openBrowser } from "./browser.ts";
import { readBoundedStream } from "../../core/bounded_read.ts";
import { join } from "../../core/posix_path.ts";
import { oauthApplies } from "../../engine/oauth_session.ts";
import { authCommandOf, type OAuthTarget, oauthTargetOf } from "../../engine/oauth_target.ts";
import { beginAuthorization, completeAuthorization } from "../../engine/oauth_flow.ts";
import {
  entryPath,
  listEntries,
  type OAuthStoreEntry,
  removeEntry,
} from "../../engine/oauth_store.ts";

/** How long `mcpx auth` waits for the browser's redirect unless `--timeout` says, ms. */
const REDIRECT_WAIT_MS = 5 * 60_000;

type Output = OutputOf<typeof auth>;
type Started = Extract<Output, { authorizationUrl: string }>;
type Authorized = Extract<Output, { authorized: true }>;
type Listed = Extract<Output, { servers: unknown }>;
type LoggedOut = Extract<Output, { removed: boolean }>;

/** What only the text shows: the command that completes (`--no-browser`) or redoes (logout) it. */
interface AuthExtra {
  command: string;
}

/**
 * Runs `mcpx auth`: authorizes a remote server in a browser (the wait's
 * progress said on stderr while it waits), starts an authorization to finish
 * elsewhere (`--no-browser`) or finishes one (`--code`, `--state`), lists
 * what mcpx holds (`ls`) or forgets it (`logout`).
 *
 * @returns `ok` with the op's document (ops/auth_ops.ts `AuthOutput`); the
 *   extra of `--no-browser` and `logout` is the command that goes on.
 * @throws {UsageError} For missing or extra words, a stdio server, a bad
 *   `oauth.clientMetadataUrl`.
 * @throws {NotFoundError} For a server the configuration lacks.
 * @throws {McpxError} `auth-timeout`, `auth-no-browser`, `auth-denied` from the browser flow.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof auth>,
): Promise<Answered<Output>> {
  const [first, ...rest] = input.words;
  if (first === undefined) {
    throw new UsageError("name the server: `mcpx auth <server>` (or `mcpx auth ls`)");
  }
  if (first === "ls" && rest.length === 0) return ok<Output>(await list(ctx));
  if (first === "logout") return await logout(ctx, rest);
  if (rest.length) {
    throw new UsageError(
      `\`mcpx auth ${first}\` takes no more words; unexpected ${rest.join(" ")}`,
    );
  }
  const target = await targetOf(ctx, first, input);
  const clientMetadataUrl = checkedMetadataUrl(await ctx.setting("oauth.clientMetadataUrl"));
  if (clientMetadataUrl) target.clientMetadataUrl = clientMetadataUrl;
  const { server, url } = target.key;
  if (input.code !== undefined || input.state !== undefined) {
    if (input.code === undefined || input.state === undefined) {
      throw new UsageError(`give both: \`${target.command} --code CODE --state STATE\``);
    }
    await completeAuthorization(target, { code: input.code, state: input.state, iss: input.iss });
    return ok<Output>(await done(ctx, server, url));
  }
  if (input.noBrowser) {
    const callbackUrl = `http://127.0.0.1:${freePort()}/callback`;
    const started = await beginAuthorization(target, callbackUrl);
    return { ...ok<Output>({ server, url, ...started }), extra: { command: target.command } };
  }
  const waitMs = input.timeout === undefined ? REDIRECT_WAIT_MS : parseTimeoutFlag(input.timeout);
  return ok<Output>(await inBrowser(ctx, target, waitMs));
}

/**
 * The terminal's rendering of each document: what was authorized (a failed
 * listing a warning on stderr), the URL to open and the command that
 * completes it, the table of servers, or what logout forgot.
 */
export function text(value: Output, view: TextView): Text {
  const extra = view.extra as AuthExtra | undefined;
  if ("servers" in value) return listText(value);
  if ("removed" in value) {
    const { server, url, removed } = value as LoggedOut;
    return removed
      ? `forgot what mcpx held for "${server}" (${url}): any tokens and its client ` +
        `registration; \`${extra!.command}\` authorizes it again\n`
      : `mcpx held no tokens for "${server}" (${url})\n`;
  }
  if ("authorizationUrl" in value) {
    const started = value as Started;
    return `open this URL in a browser and authorize mcpx:\n  ${started.authorizationUrl}\n` +
      `it sends the browser back to ${started.callbackUrl}?code=…&state=…; then run:\n` +
      `  ${extra!.command} --code CODE --state ${started.state}\n`;
  }
  const { server, url, tools, listError } = value as Authorized;
  return {
    out: `authorized: server "${server}" (${url})` +
      (tools !== undefined ? `, ${tools} tools listed with it\n` : "\n"),
    err: listError ? `warning: listing it again failed: ${listError}\n` : "",
  };
}

/**
 * The authorization is stored: the server is listed again with it (the
 * daemon may hold a listing that failed for want of it), and the outcome said.
 */
async function done(ctx: CliContext, server: string, url: string): Promise<Authorized> {
  let listed: ListResult | undefined;
  try {
    listed = (await ctx.request<Record<string, ListResult>>("list", { servers: [server] }))[server];
  } catch (error) {
    listed = { error: (error as Error).message } as ListResult;
  }
  const tools = listed?.tools;
  return {
    server,
    url,
    authorized: true,
    ...(tools !== undefined ? { tools } : {}),
    ...(listed?.error ? { listError: listed.error } : {}),
  };
}

/**
 * The browser flow: a loopback listener, the browser opened on the URL, the
 * redirect awaited for `waitMs`. A redirect whose `state` is not the one
 * sent is answered 400 and ignored (something else on this machine may reach
 * the port); the wait goes on. When no browser starts, a person at a
 * terminal may still open the URL printed; with nobody there, the command
 * fails at once naming `--no-browser` rather than waiting for no one.
 *
 * @throws {McpxError} `auth-timeout` when `waitMs` passes, `auth-no-browser`
 *   when no browser started and stdin is not a terminal, `auth-denied` when
 *   the authorization server redirected with an `error`.
 */
async function inBrowser(
  ctx: CliContext,
  target: OAuthTarget,
  waitMs: number,
): Promise<Authorized> {
  const { promise: redirected, resolve, reject } = Promise.withResolvers<URLSearchParams>();
  let expected: string | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/callback") return new Response("not found", { status: 404 });
    if (expected === undefined || url.searchParams.get("state") !== expected) {
      return new Response("mcpx: this is not the authorization mcpx started (its state differs)", {
        status: 400,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    resolve(url.searchParams);
    const error = url.searchParams.get("error");
    return new Response(
      error
        ? `mcpx: the authorization server answered ${error}; see the terminal.`
        : "mcpx: authorized. You can close this tab and go back to the terminal.",
      { headers: { "content-type": "text/plain; charset=utf-8" } },
    );
  });
  const elsewhere = `\`${target.command} --no-browser\` prints the URL to open elsewhere ` +
    "and the command that completes it";
  const timer = setTimeout(
    () =>
      reject(
        new McpxError(
          "auth-timeout",
          `no redirect came back within ${formatDuration(waitMs)}; ${elsewhere}`,
        ),
      ),
    waitMs,
  );
  try {
    const callbackUrl = `http://127.0.0.1:${server.addr.port}/callback`;
    const started = await beginAuthorization(target, callbackUrl);
    expected = started.state;
    ctx.io.err(
      `opening a browser on:\n  ${started.authorizationUrl}\n` +
        `waiting up to ${formatDuration(waitMs)} for its redirect to ${callbackUrl}…\n`,
    );
    // Not awaited: a browser may run until its window closes, long after the redirect.
    void openBrowser(started.authorizationUrl, ctx.env).then((outcome) => {
      if (outcome.opened) return;
      const why = `could not start a browser (${outcome.tried.join("; ")}; set BROWSER to ` +
        "the command that opens one)";
      if (Deno.stdin.isTerminal()) {
        ctx.io.err(`${why}: open the URL above yourself, or press Ctrl-C; ${elsewhere}\n`);
      } else {
        reject(
          new McpxError(
            "auth-no-browser",
            `${why}, and no one at a terminal can open the URL: ${elsewhere}`,
          ),
        );
      }
    });
    const params = await redirected;
    const error = params.get("error");
    if (error) {
      throw new McpxError(
        "auth-denied",
        `the authorization server answered ${error}${
          params.get("error_description") ? `: ${params.get("error_description")}` : ""
        }`,
      );
    }
    await completeAuthorization(target, {
      code: params.get("code") ?? "",
      state: params.get("state") ?? "",
      iss: params.get("iss") ?? undefined,
    });
    return await done(ctx, target.key.server, target.key.url);
  } finally {
    clearTimeout(timer);
    await server.shutdown();
  }
}

/**
 * The setting `oauth.clientMetadataUrl`, or undefined when empty. A client id
 * that is a URL must be HTTPS with a path (MCP 2025-11-25, "Client ID Metadata
 * Documents"), so anything else is refused before the browser is involved.
 *
 * @throws UsageError naming the value and the rule.
 */
function checkedMetadataUrl(value: string): string | undefined {
  if (value === "") return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch { /* named below */ }
  if (url?.protocol !== "https:" || url.pathname === "/") {
    throw new UsageError(
      `oauth.clientMetadataUrl must be an https:// URL with a path (where mcpx's client ID ` +
        `metadata document is served), got ${JSON.stringify(value)}; fix it or unset it to ` +
        "register dynamically",
    );
  }
  return value;
}

/** A loopback port free now (the `--no-browser` callback URL names one nothing listens on yet). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** The server `name` (or namespace) of the configuration, with its store key. */
async function targetOf(
  ctx: CliContext,
  name: string,
  input: InputOf<typeof auth>,
): Promise<OAuthTarget> {
  const config = await ctx.config();
  const spec = config.servers.find((s) => s.name === name || s.namespace === name);
  if (!spec || config.path === null) {
    throw new NotFoundError(
      `no server "${name}" in ${config.path ?? "any configuration"}; ` +
        "`mcpx auth <url>` authorizes a server by its URL",
      config.servers.map((s) => s.name),
    );
  }
  checkRemote(spec);
  const target = oauthTargetOf(spec, config.path, ctx.paths().stateDir);
  if (input.clientSecret !== undefined && input.clientId === undefined) {
    throw new UsageError("--client-secret goes with --client-id");
  }
  if (input.clientId !== undefined) {
    const clientSecret = await clientSecretOf(ctx, input.clientSecret);
    target.client = {
      clientId: input.clientId,
      ...(clientSecret !== undefined ? { clientSecret } : {}),
    };
  }
  return target;
}

/** The variable `--client-id`'s secret is read from when `--client-secret` is not given. */
export const CLIENT_SECRET_ENV = "MCPX_OAUTH_CLIENT_SECRET";

/**
 * The secret of the client `--client-id` names, kept off the command line
 * where it can: `--client-secret -` reads it from stdin (its first line),
 * else {@link CLIENT_SECRET_ENV}; `--client-secret VALUE` still works but is
 * visible to every user of the machine in the process list.
 *
 * @param flag The `--client-secret` value as given, if any.
 * @returns The secret, or undefined for a public client (neither given).
 * @throws {UsageError} when stdin was asked for and held no secret.
 */
async function clientSecretOf(
  ctx: CliContext,
  flag: string | undefined,
): Promise<string | undefined> {
  if (flag !== "-") return flag ?? (ctx.env[CLIENT_SECRET_ENV] || undefined);
  const bytes = await readBoundedStream(Deno.stdin.readable, "the client secret on stdin", {
    maxBytes: 64 * 1024,
  });
  const secret = new TextDecoder().decode(bytes).split(/\r?\n/)[0];
  if (secret === "") {
    throw new UsageError(
      "--client-secret - reads the secret from stdin, which held none; pipe it in " +
        `(\`printf %s "$SECRET" | mcpx auth <server> --client-id ID --client-secret -\`) or set ${CLIENT_SECRET_ENV}`,
    );
  }
  return secret;
}

function checkRemote(spec: ServerSpec): void {
  if (spec.transport === "stdio") {
    throw new UsageError(
      `server "${spec.name}" runs over stdio; OAuth is for remote (HTTP) servers`,
    );
  }
  if (!oauthApplies(spec)) {
    throw new UsageError(
      `server "${spec.name}" sends credentials of its own (an Authorization header or an ` +
        "`auth` block of another type); remove them to use OAuth",
    );
  }
}

/** `mcpx auth ls`: this configuration's remote servers and the direct targets mcpx holds tokens for. */
async function list(ctx: CliContext): Promise<Listed> {
  const config = await ctx.config();
  const stateDir = ctx.paths().stateDir;
  const stored = await listEntries(stateDir);
  const rows: OAuthStoreEntry[] = [];
  const seen = new Set<string>();
  for (const spec of config.servers) {
    if (!config.path || !oauthApplies(spec)) continue;
    const path = await entryPath(stateDir, {
      configPath: config.path,
      server: spec.name,
      url: spec.url!,
    });
    seen.add(path);
    rows.push(
      stored.find((s) => s.path === path)?.entry ??
        { version: 1, configPath: config.path, server: spec.name, url: spec.url! },
    );
  }
  const direct = join(stateDir, "direct") + "/";
  for (const { path, entry } of stored) {
    if (!seen.has(path) && entry.configPath.startsWith(direct)) rows.push(entry);
  }
  const shown = rows.map((e) => ({
    server: e.server,
    url: e.url,
    configPath: e.configPath,
    tokens: e.tokens !== undefined,
    ...(e.expiresAt !== undefined ? { expiresAt: new Date(e.expiresAt).toISOString() } : {}),
    refreshable: e.tokens?.refresh_token !== undefined,
    ...(e.tokens?.scope ? { scope: e.tokens.scope } : {}),
    pending: e.codeVerifier !== undefined,
  }));
  return { servers: shown };
}

function listText({ servers: shown }: Listed): string {
  if (shown.length === 0) {
    return "no remote servers: `mcpx auth <url>` authorizes one by its URL\n";
  }
  return renderTable(
    ["SERVER", "URL", "TOKENS", "EXPIRES", "REFRESH"],
    shown.map((r) => [
      r.server,
      r.url,
      r.tokens ? "yes" : r.pending ? "waiting for --code" : "no",
      r.expiresAt ?? "",
      r.refreshable ? "yes" : "no",
    ]),
  );
}

/** `mcpx auth logout <server|url>`: forgets the tokens and client of that server. */
async function logout(ctx: CliContext, words: string[]): Promise<Answered<Output>> {
  if (words.length !== 1) {
    throw new UsageError("name one server: `mcpx auth logout <server|url>`");
  }
  let key: { configPath: string; server: string; url: string };
  if (isDirectUrl(words[0])) {
    const { directCommand } = await import("../direct_target.ts");
    const direct = (await directCommand("auth", words, {}, ctx.paths().stateDir, ctx.cwd))!;
    key = {
      configPath: direct.configPath,
      server: direct.target.name,
      url: String(direct.target.entry.url),
    };
  } else {
    const config = await ctx.config();
    const spec = config.servers.find((s) => s.name === words[0] || s.namespace === words[0]);
    if (!spec || !config.path || spec.transport === "stdio") {
      throw new NotFoundError(
        `no remote server "${words[0]}" in ${config.path ?? "any configuration"}`,
      );
    }
    key = { configPath: config.path, server: spec.name, url: spec.url! };
  }
  const removed = await removeEntry(await entryPath(ctx.paths().stateDir, key));
  const command = authCommandOf(ctx.paths().stateDir, key.configPath, {
    name: key.server,
    url: key.url,
  });
  return {
    ...ok<Output>({ server: key.server, url: key.url, removed }),
    extra: { command } satisfies AuthExtra,
  };
}

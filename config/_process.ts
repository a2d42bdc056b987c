/**
 * Reading the keys of a server entry that say which program runs and how it
 * is reached (`command`/`url`, `args`, `env`, `cwd`, `headers`, `type` or
 * `transport`, and the credentials of `auth`: config/_auth.ts), expanding
 * `${VAR}` in them. Private to config/.
 *
 * An unset variable is not a problem of the file: it belongs to the one
 * server that names it, which is then unusable (`ServerSpec.unavailable`)
 * while every other server works. A malformed `${` is a problem of the file,
 * since it is wrong whatever the environment holds.
 *
 * Source: spec 000, "Configuration"; issue 8 ("one server's unset ${VAR} must
 * not stop every command").
 *
 * @module
 */

import { isAbsolute, resolve } from "../core/posix_path.ts";
import type { ServerSpec, TransportKind } from "./types.ts";
import { expandVars, malformedReferenceMessage } from "./expand.ts";
import { describeValue } from "./_describe.ts";
import { formatPath, type JsonPath, type Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";
import { authorizationHeader, urlCredentials } from "./url_credentials.ts";
import { mapValues, type Obj, readStringArray, readStringMap } from "./_read.ts";
import { readAuth } from "./_auth.ts";

const TRANSPORTS: Record<string, TransportKind> = {
  stdio: "stdio",
  http: "http",
  sse: "sse",
  "streamable-http": "http",
  streamableHttp: "http",
};

/** What {@link parseProcess} needs besides the entry. */
export interface ProcessContext {
  file: string | null;
  /**
   * The directory a stdio server starts in when its entry sets no `cwd`, and
   * what a relative `cwd` resolves against: the configuration file's real
   * directory (symlinks resolved, config/load.ts), so a file reached through a
   * link in another directory never runs that directory's code. Null: no file.
   */
  dir: string | null;
  env: Record<string, string | undefined>;
  problems: Problems;
  warnings: string[];
}

/** A variable a server's process keys name that is unset, and where. */
export interface UnsetReference {
  variable: string;
  /** JSON path of the string naming it, e.g. `["mcpServers", "gh", "env", "TOKEN"]`. */
  path: JsonPath;
}

/** The fields of a {@link ServerSpec} that say which program runs and how it is reached. */
export type ProcessFields = Pick<
  ServerSpec,
  "transport" | "command" | "args" | "env" | "cwd" | "url" | "headers" | "auth"
>;

/** Entry keys that say which process runs; an alias takes all of them from its target. */
export const PROCESS_KEYS: readonly string[] = [
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "transport",
  "type",
  // Credentials are part of what runs: an alias uses its target's (decision 0041).
  "auth",
];

/**
 * Reads and expands the entry's process keys. Problems of the file go to
 * `ctx.problems`; variables that are unset go to the result's `unset`, in the
 * order written, so the caller can mark the server unusable rather than refuse
 * the whole file.
 *
 * @param name The key under `mcpServers`.
 * @param entry Its value (an object).
 * @param at Its JSON path.
 * @param ctx File, environment and collectors.
 * @returns The process fields (an unset reference left as written) and the unset variables.
 */
export function parseProcess(
  name: string,
  entry: Obj,
  at: JsonPath,
  ctx: ProcessContext,
): ProcessFields & { unset: UnsetReference[] } {
  const { problems } = ctx;
  const unset: UnsetReference[] = [];
  const expand = (value: string, path: JsonPath): string => {
    const { value: out, missing, malformed } = expandVars(value, ctx.env);
    for (const m of malformed) problems.add(path, malformedReferenceMessage(m, value, name));
    for (const variable of missing) unset.push({ variable, path });
    return out;
  };

  // Transport.
  const declared = readTransport(entry, "type", at, problems);
  const declaredTransport = readTransport(entry, "transport", at, problems);
  if (declared && declaredTransport && declared !== declaredTransport) {
    problems.add(
      [...at, "transport"],
      `says ${describeValue(entry.transport)} but "type" says ${describeValue(entry.type)}; ` +
        `remove one of them`,
    );
  }
  const wanted = declaredTransport ?? declared;

  let command: string | undefined;
  if (entry.command !== undefined) {
    if (typeof entry.command === "string" && entry.command.trim() !== "") {
      command = expand(entry.command, [...at, "command"]);
    } else {
      problems.add(
        [...at, "command"],
        `must be a non-empty string, got ${describeValue(entry.command)}; set it to the program ` +
          `that starts the server, e.g. "npx"`,
      );
    }
  }
  let url: string | undefined;
  if (entry.url !== undefined) {
    if (typeof entry.url === "string") {
      const expanded = expand(entry.url, [...at, "url"]);
      if (expandVars(entry.url, ctx.env).missing.length === 0) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(expanded);
        } catch { /* reported below */ }
        if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
          problems.add(
            [...at, "url"],
            `must be an http:// or https:// URL, got ${describeValue(expanded)}; write e.g. ` +
              `"https://example.com/mcp"`,
          );
        }
      }
      url = expanded;
    } else {
      problems.add(
        [...at, "url"],
        `must be a string, got ${describeValue(entry.url)}; write e.g. "https://example.com/mcp"`,
      );
    }
  }
  if (entry.command !== undefined && entry.url !== undefined) {
    problems.add(
      at,
      `has both "command" and "url", got command ${describeValue(entry.command)} and url ` +
        `${describeValue(entry.url)}; keep "command" for a local server or "url" for a remote one`,
    );
  } else if (entry.command === undefined && entry.url === undefined) {
    problems.add(
      at,
      `has neither "command" nor "url", got keys ${describeValue(Object.keys(entry))}; add ` +
        `"command" (a program to start) or "url" (a remote server)`,
    );
  } else if (wanted === "stdio" && entry.url !== undefined) {
    problems.add(
      [...at, entry.transport !== undefined ? "transport" : "type"],
      `is "stdio", which needs "command", but the entry has "url"; use "http" or "sse", or ` +
        `replace "url" with "command"`,
    );
  } else if (wanted && wanted !== "stdio" && entry.command !== undefined) {
    problems.add(
      [...at, entry.transport !== undefined ? "transport" : "type"],
      `is ${describeValue(wanted)}, which needs "url", but the entry has "command"; use "stdio" ` +
        `or replace "command" with "url"`,
    );
  }
  const transport: TransportKind = wanted ??
    (url !== undefined ? (/\/sse\/?$/.test(safePathname(url)) ? "sse" : "http") : "stdio");

  const args = readStringArray(entry, "args", at, problems, `e.g. ["-y", "some-mcp-server"]`)
    ?.map((a, i) => expand(a, [...at, "args", i])) ?? [];
  const env = mapValues(
    readStringMap(entry, "env", at, problems),
    (v, k) => expand(v, [...at, "env", k]),
  );
  const headers = mapValues(
    readStringMap(entry, "headers", at, problems),
    (v, k) => expand(v, [...at, "headers", k]),
  );
  let cwd: string | undefined;
  if (entry.cwd !== undefined) {
    if (typeof entry.cwd === "string" && entry.cwd !== "") {
      cwd = expand(entry.cwd, [...at, "cwd"]);
      if (!isAbsolute(cwd) && ctx.dir !== null) cwd = resolve(ctx.dir, cwd);
    } else {
      problems.add(
        [...at, "cwd"],
        `must be a non-empty string, got ${describeValue(entry.cwd)}; set the directory the ` +
          `server starts in (relative to the config file), e.g. "."`,
      );
    }
  }
  // A stdio server always has a working directory: relative paths in its
  // command and args, and `npx`'s search for a local package, mean the
  // configuration file's directory, and the directory is part of its pool
  // identity (config/pool_id.ts), so two projects' `node server.js` never
  // share a process or a listing.
  if (transport === "stdio" && cwd === undefined && ctx.dir !== null) cwd = ctx.dir;
  const auth = readAuth(entry.auth, [...at, "auth"], {
    ...ctx,
    transport,
    expand,
    headers,
    env,
    url,
  });
  if (transport !== "stdio") {
    for (const key of ["args", "env", "cwd"]) {
      if (entry[key] !== undefined) {
        ctx.warnings.push(
          `config ${ctx.file ?? "(none)"}: ${formatPath([...at, key])}: ignored for a remote ` +
            `(${transport}) server`,
        );
      }
    }
    const authorization = authorizationHeader(headers);
    if (url !== undefined && authorization !== undefined && urlCredentials(url)) {
      ctx.warnings.push(
        `config ${ctx.file ?? "(none)"}: ${formatPath([...at, "url"])}: its user information ` +
          `(user:password@) is not sent, because ${
            formatPath([...at, "headers", authorization])
          } is; remove one of them`,
      );
    }
  } else if (entry.headers !== undefined) {
    ctx.warnings.push(
      `config ${ctx.file ?? "(none)"}: ${
        formatPath([...at, "headers"])
      }: ignored for a stdio server`,
    );
  }
  return { unset, ...processFields({ transport, command, args, env, cwd, url, headers, auth }) };
}

/**
 * The process fields as a {@link ServerSpec} holds them: only these eight
 * keys, in the spec's order, with `command`, `cwd`, `url` and `auth` left out
 * when unset (never present as `undefined`).
 *
 * @param fields The fields, e.g. an alias's target spec.
 * @returns A new object.
 */
export function processFields(fields: ProcessFields): ProcessFields {
  const { transport, command, args, env, cwd, url, headers, auth } = fields;
  return {
    transport,
    ...(command !== undefined ? { command } : {}),
    args,
    env,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(url !== undefined ? { url } : {}),
    headers,
    ...(auth !== undefined ? { auth } : {}),
  };
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

function readTransport(entry: Obj, key: "type" | "transport", at: JsonPath, problems: Problems) {
  const v = entry[key];
  if (v === undefined) return undefined;
  if (typeof v === "string" && Object.hasOwn(TRANSPORTS, v)) return TRANSPORTS[v];
  problems.add(
    [...at, key],
    `must be one of ${Object.keys(TRANSPORTS).map((t) => `"${t}"`).join(", ")}, got ${
      describeValue(v)
    }${
      typeof v === "string" ? didYouMean(v, Object.keys(TRANSPORTS)) : ""
    }; or leave it out to infer it from "command"/"url"`,
  );
  return undefined;
}

/**
 * Translating another host's server entries into `mcpServers` entries
 * (decision 0055): each host's key names (`servers` for VS Code, `mcp` with
 * `command` arrays for opencode, `[mcp_servers.*]` tables for Codex,
 * `serverUrl` for Windsurf), its environment and header forms, and its
 * variable syntax (`${env:NAME}`, `{env:NAME}`, `${input:id}`,
 * `${workspaceFolder}`, `${userHome}`) turned into mcpx's `${NAME}`
 * (config/expand.ts). Text that is not a reference keeps its meaning: a
 * literal `${` is written `$${`.
 *
 * What has no mcpx equivalent is said in the server's notes; a server whose
 * process cannot be written without it (a `${command:…}`, a `{file:…}`, an
 * entry mcpx's own parser refuses) is not translated at all.
 *
 * @module
 */

import { basename } from "../core/posix_path.ts";
import type { HostFile } from "./host_files.ts";
import type { Host } from "./host_names.ts";
import { parseServer } from "./_server.ts";
import { Problems } from "./_problems.ts";
import { variableName } from "./registry_entry.ts";

/** One server found in a host's file. */
export interface ImportedServer {
  name: string;
  /** The translated entry; absent when it does not translate. */
  entry?: Record<string, unknown>;
  /** What did not translate, or why nothing did. */
  notes: string[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? v : undefined;
const stringMap = (v: unknown): Record<string, string> | undefined =>
  isObj(v) && Object.values(v).every((x) => typeof x === "string")
    ? v as Record<string, string>
    : undefined;

/** Turns one host string into mcpx's syntax, collecting notes and blocking problems. */
class Translator {
  notes: string[] = [];
  blocked: string[] = [];
  constructor(readonly host: Host, readonly file: HostFile) {}

  text(value: string): string {
    const escape = (s: string) => s.replaceAll("${", () => "$${");
    switch (this.host) {
      case "claude-code":
        return value; // `${VAR}` and `${VAR:-default}`, as mcpx writes them
      case "cursor":
      case "vscode":
      case "windsurf":
        return this.#replace(value, /\$\{([^}]*)\}/g, escape, (ref) => this.#editorRef(ref));
      case "opencode":
        return this.#replace(value, /\{(env|file):([^}]*)\}/g, escape, (kind, name) => {
          if (kind === "env") return `\${${name}}`;
          this.blocked.push(`{file:${name}} reads a file into the value; mcpx has no such form`);
          return undefined;
        });
      default:
        return escape(value); // no variables in Claude Desktop's or Codex's files
    }
  }

  #replace(
    value: string,
    pattern: RegExp,
    escape: (s: string) => string,
    ref: (...groups: string[]) => string | undefined,
  ): string {
    let out = "";
    let last = 0;
    for (const m of value.matchAll(pattern)) {
      out += escape(value.slice(last, m.index));
      out += ref(...m.slice(1)) ?? escape(m[0]);
      last = m.index! + m[0].length;
    }
    return out + escape(value.slice(last));
  }

  #editorRef(ref: string): string | undefined {
    const [kind, ...rest] = ref.split(":");
    const arg = rest.join(":");
    if (kind === "env" && arg) return `\${${arg}}`;
    if (ref === "userHome") return "${HOME}";
    if (ref === "pathSeparator" || ref === "/") return "/";
    if (ref === "workspaceFolder" || ref === "workspaceFolderBasename") {
      if (this.file.project === undefined) {
        this.blocked.push(`\${${ref}} in a user file names no one project`);
        return undefined;
      }
      return ref === "workspaceFolder" ? this.file.project : basename(this.file.project);
    }
    if (kind === "input" && arg) {
      const variable = variableName(arg);
      this.notes.push(`\${input:${arg}} (asked of the user by VS Code) is read from $${variable}`);
      return `\${${variable}}`;
    }
    this.blocked.push(`\${${ref}} has no mcpx equivalent`);
    return undefined;
  }

  list(v: string[]): string[] {
    return v.map((s) => this.text(s));
  }

  map(v: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(v).map(([k, s]) => [k, this.text(s)]));
  }
}

/** Keys read from an `mcpServers`-style entry; anything else is noted as not translated. */
const KNOWN = new Set(["command", "args", "env", "cwd", "url", "serverUrl", "headers", "type"]);
const IGNORED: Record<string, string> = {
  disabled: "",
  disabledTools: "",
  envFile: "envFile is not read: set its variables in the environment mcpx runs in",
  headersHelper: "headersHelper (a command printing headers) is not run: set headers instead",
  oauth: "its OAuth settings are not copied: run `mcpx auth <name>` once instead",
  auth: "its OAuth settings are not copied: run `mcpx auth <name>` once instead",
  dev: "VS Code's dev (watch and debug) settings do not apply",
};

function fromMcpServers(raw: Obj, t: Translator): Obj {
  const entry: Obj = {};
  if (typeof raw.command === "string") entry.command = t.text(raw.command);
  const args = strings(raw.args);
  if (args) entry.args = t.list(args);
  const env = stringMap(raw.env);
  if (env && Object.keys(env).length) entry.env = t.map(env);
  if (typeof raw.cwd === "string") entry.cwd = t.text(raw.cwd);
  const url = raw.url ?? raw.serverUrl;
  if (typeof url === "string") entry.url = t.text(url);
  const headers = stringMap(raw.headers);
  if (headers && Object.keys(headers).length) entry.headers = t.map(headers);
  if (
    typeof raw.type === "string" && ["stdio", "http", "sse", "streamable-http"].includes(raw.type)
  ) {
    entry.type = raw.type;
  }
  if (raw.disabled === true) entry.disabled = true;
  const excluded = strings(raw.disabledTools);
  if (excluded?.length) entry.mcpx = { excludeTools: excluded };
  for (const key of Object.keys(raw)) {
    if (KNOWN.has(key)) continue;
    const why = IGNORED[key];
    if (why !== "") t.notes.push(why ?? `"${key}" is not translated`);
  }
  return entry;
}

function fromCodex(raw: Obj, t: Translator): Obj {
  const entry = fromMcpServers(
    { command: raw.command, args: raw.args, env: raw.env, cwd: raw.cwd, url: raw.url },
    t,
  );
  const headers: Record<string, string> = { ...(entry.headers as Record<string, string>) };
  for (const [k, v] of Object.entries(stringMap(raw.http_headers) ?? {})) headers[k] = t.text(v);
  for (const [k, v] of Object.entries(stringMap(raw.env_http_headers) ?? {})) {
    headers[k] = `\${${v}}`;
  }
  if (typeof raw.bearer_token_env_var === "string") {
    headers.Authorization = `Bearer \${${raw.bearer_token_env_var}}`;
  }
  if (Object.keys(headers).length) entry.headers = headers;
  if (raw.enabled === false) entry.disabled = true;
  const mcpx: Obj = {};
  const allowed = strings(raw.enabled_tools);
  if (allowed) mcpx.tools = allowed;
  const denied = strings(raw.disabled_tools);
  if (denied) mcpx.excludeTools = denied;
  if (typeof raw.startup_timeout_sec === "number") {
    mcpx.startTimeout = `${raw.startup_timeout_sec}s`;
  }
  if (typeof raw.tool_timeout_sec === "number") mcpx.callTimeout = `${raw.tool_timeout_sec}s`;
  if (Object.keys(mcpx).length) entry.mcpx = mcpx;
  const read = new Set([
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "http_headers",
    "env_http_headers",
    "bearer_token_env_var",
    "enabled",
    "enabled_tools",
    "disabled_tools",
    "startup_timeout_sec",
    "tool_timeout_sec",
    "env_vars",
  ]);
  for (const key of Object.keys(raw)) {
    if (!read.has(key)) t.notes.push(`"${key}" is not translated`);
  }
  return entry;
}

function fromOpencode(raw: Obj, t: Translator): Obj {
  const entry: Obj = {};
  if (raw.type === "remote") {
    if (typeof raw.url === "string") entry.url = t.text(raw.url);
    const headers = stringMap(raw.headers);
    if (headers && Object.keys(headers).length) entry.headers = t.map(headers);
    if (raw.oauth !== undefined && raw.oauth !== false) t.notes.push(IGNORED.oauth);
  } else {
    const command = strings(raw.command);
    if (command?.length) {
      entry.command = t.text(command[0]);
      if (command.length > 1) entry.args = t.list(command.slice(1));
    }
    const env = stringMap(raw.environment);
    if (env && Object.keys(env).length) entry.env = t.map(env);
  }
  if (raw.enabled === false) entry.disabled = true;
  if (raw.timeout !== undefined) t.notes.push(`"timeout" is not translated`);
  return entry;
}

/** The raw entries of a host's document, by name, nearest scope first. */
function rawEntries(file: HostFile, doc: Obj, cwd: string): [string, unknown][] {
  switch (file.host) {
    case "vscode":
      return Object.entries(isObj(doc.servers) ? doc.servers : {});
    case "codex":
      return Object.entries(isObj(doc.mcp_servers) ? doc.mcp_servers : {});
    case "opencode":
      return Object.entries(isObj(doc.mcp) ? doc.mcp : {});
    case "claude-code": {
      const own = Object.entries(isObj(doc.mcpServers) ? doc.mcpServers : {});
      if (file.scope === "project" || !isObj(doc.projects)) return own;
      // ~/.claude.json keeps each project's "local" servers under its absolute path.
      const local = Object.entries(doc.projects)
        .filter(([dir]) => cwd === dir || cwd.startsWith(`${dir.replace(/\/$/, "")}/`))
        .sort(([a], [b]) => b.length - a.length)[0]?.[1];
      const localServers = isObj(local) && isObj(local.mcpServers) ? local.mcpServers : {};
      return [...Object.entries(localServers), ...own];
    }
    default:
      return Object.entries(isObj(doc.mcpServers) ? doc.mcpServers : {});
  }
}

/**
 * The servers of one host file, each translated or with the reason it is not.
 *
 * @param file Where it was found.
 * @param doc Its parsed content (config/host_files.ts `readHostFile`).
 * @param cwd The working directory (Claude Code's per-project servers).
 */
export function hostServers(file: HostFile, doc: Obj, cwd: string): ImportedServer[] {
  const out: ImportedServer[] = [];
  for (const [name, raw] of rawEntries(file, doc, cwd)) {
    if (out.some((s) => s.name === name)) continue;
    if (!isObj(raw)) {
      out.push({ name, notes: ["its entry is not an object"] });
      continue;
    }
    const t = new Translator(file.host, file);
    const entry = file.host === "codex"
      ? fromCodex(raw, t)
      : file.host === "opencode"
      ? fromOpencode(raw, t)
      : fromMcpServers(raw, t);
    if (t.blocked.length) {
      out.push({ name, notes: [...t.blocked, ...t.notes] });
      continue;
    }
    // mcpx's own parser has the last word on whether the entry is one it runs.
    const problems = new Problems(file.path);
    parseServer(name, entry, {
      file: file.path,
      dir: file.project ?? null,
      env: {},
      problems,
      warnings: [],
      poolDefaults: {},
    });
    if (problems.list.length) {
      out.push({ name, notes: [...problems.list.map((p) => p.message), ...t.notes] });
      continue;
    }
    out.push({ name, entry, notes: t.notes });
  }
  return out;
}

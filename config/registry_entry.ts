/**
 * Translating an MCP Registry entry (the `server.json` shape the official
 * registry and every registry implementing its API serve) into an
 * `mcpServers` entry this machine runs (decision 0054).
 *
 * Rules, from spec 000 "Finding servers that are not configured yet":
 *
 * - A remote is preferred when the entry offers one (Streamable HTTP before
 *   SSE): nothing is installed, nothing runs locally.
 * - Otherwise the first package that can run over stdio becomes an ephemeral
 *   runner with its version pinned: npm → `npx -y pkg@version`, PyPI →
 *   `uvx pkg@version`, OCI → `docker run --rm -i image:tag`, NuGet →
 *   `dnx pkg@version --yes`. A publisher's `runtimeHint` names the command
 *   instead of that table.
 * - Secrets are never invented: a required input without a value becomes a
 *   `${VAR}` reference (config/expand.ts), so mcpx says which variable is
 *   unset instead of starting a server that exits at once, and each such
 *   variable is reported in {@link Translation.needs}.
 * - The reverse-DNS name is stripped to its last part, made an identifier:
 *   `io.github.microsoft/playwright-mcp` is `playwright_mcp`.
 *
 * @module
 */

import { toIdentifier } from "./identifiers.ts";

/** An input of the registry's schema: a value, or what to ask for (`Input`). */
export interface RegistryInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: string;
  /** Fixed value; `{name}` in it is replaced from {@link variables}. */
  value?: string;
  default?: string;
  choices?: string[];
  variables?: Record<string, RegistryInput>;
}

/** A command-line argument (`PositionalArgument` or `NamedArgument`). */
export interface RegistryArgument extends RegistryInput {
  type: "positional" | "named";
  /** The flag, dashes included (named). */
  name?: string;
  /** The argument's label (positional). */
  valueHint?: string;
  isRepeated?: boolean;
}

/** An environment variable or a header (`KeyValueInput`). */
export interface RegistryKeyValue extends RegistryInput {
  name: string;
}

/** How a package or a remote is reached. */
export interface RegistryTransport {
  type: "stdio" | "streamable-http" | "sse" | string;
  url?: string;
  headers?: RegistryKeyValue[];
  variables?: Record<string, RegistryInput>;
}

/** A package the server is published as. */
export interface RegistryPackage {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  runtimeHint?: string;
  transport?: RegistryTransport;
  runtimeArguments?: RegistryArgument[];
  packageArguments?: RegistryArgument[];
  environmentVariables?: RegistryKeyValue[];
}

/** The server itself (`ServerDetail`). */
export interface RegistryServer {
  name: string;
  description?: string;
  title?: string;
  version?: string;
  websiteUrl?: string;
  repository?: { url?: string; source?: string };
  packages?: RegistryPackage[];
  remotes?: RegistryTransport[];
}

/** A variable the caller must set before the server can start. */
export interface NeededVariable {
  variable: string;
  description?: string;
  secret: boolean;
  /** Where it is used, e.g. `env BRAVE_API_KEY`, `header Authorization`, `argument <dir>`. */
  usedBy: string;
}

/** What {@link translateRegistryServer} made of an entry. */
export interface Translation {
  /** The key under `mcpServers` (an identifier). */
  name: string;
  entry: Record<string, unknown>;
  /** What it runs: a remote or a package. */
  via: "remote" | "package";
  /** One line: `streamable-http https://…` or `npm @scope/pkg@1.2.3 (npx)`. */
  summary: string;
  /** Required inputs without a value, each now a `${VAR}` reference. */
  needs: NeededVariable[];
  /** Optional inputs left out (the server's own default applies). */
  optional: { name: string; description?: string }[];
  /** What was not translated, and other choices the entry offered. */
  notes: string[];
}

/** The name part of a reverse-DNS server name, as a namespace. */
export function registryShortName(name: string): string {
  const last = name.slice(name.lastIndexOf("/") + 1) || name;
  return toIdentifier(last);
}

/** `X-API-Key` → `X_API_KEY`: the variable a named input is read from. */
export function variableName(label: string): string {
  const v = label.replace(/^-+/, "").replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")
    .toUpperCase();
  return /^[A-Z_]/.test(v) ? v : `_${v}`;
}

/** A literal for a configuration string: `${` written so config/expand.ts leaves it be. */
function literal(text: string): string {
  return text.replaceAll("${", () => "$${");
}

/** Collects what resolving inputs found. */
class Inputs {
  needs: NeededVariable[] = [];
  optional: { name: string; description?: string }[] = [];

  /**
   * An input's text: its value with `{var}` filled, else (required) its
   * default or a `${VAR}` reference; undefined for an optional one without
   * value. `overridable` writes a default as `${VAR:-default}` (env, headers).
   */
  resolve(
    input: RegistryInput,
    label: string,
    usedBy: string,
    overridable: boolean,
  ): string | undefined {
    if (input.value !== undefined) {
      return literal(input.value).replace(
        /\{([A-Za-z0-9_.-]+)\}/g,
        (whole, key: string): string => {
          const variable = input.variables?.[key];
          if (!variable) return whole;
          return this.resolve({ isRequired: true, ...variable }, key, usedBy, true) ?? "";
        },
      );
    }
    const variable = variableName(label);
    if (input.default !== undefined && (input.isRequired || !overridable)) {
      return overridable ? `\${${variable}:-${input.default.replaceAll("}", "")}}` : literal(
        input.default,
      );
    }
    if (input.isRequired) {
      if (!this.needs.some((n) => n.variable === variable)) {
        this.needs.push({
          variable,
          description: input.description,
          secret: input.isSecret === true,
          usedBy,
        });
      }
      return `\${${variable}}`;
    }
    if (input.default === undefined) {
      this.optional.push({ name: label, description: input.description });
    }
    return undefined;
  }

  /** Arguments as argv words (a named one with a value is `--flag value`). */
  args(list: readonly RegistryArgument[] | undefined): string[] {
    const out: string[] = [];
    for (const arg of list ?? []) {
      const label = arg.type === "named" ? (arg.name ?? "arg") : (arg.valueHint ?? "arg");
      const usedBy = `argument ${arg.type === "named" ? arg.name : `<${label}>`}`;
      const flagOnly = arg.type === "named" && arg.value === undefined &&
        arg.default === undefined && arg.format === "boolean";
      if (flagOnly) continue;
      const value = this.resolve(arg, label, usedBy, false);
      if (value === undefined) continue;
      if (arg.type === "named" && arg.name) out.push(arg.name);
      out.push(value);
    }
    return out;
  }

  /** Key-value inputs (env or headers) as a record. */
  record(list: readonly RegistryKeyValue[] | undefined, kind: "env" | "header") {
    const out: Record<string, string> = {};
    for (const kv of list ?? []) {
      const value = this.resolve(kv, kv.name, `${kind} ${kv.name}`, true);
      if (value !== undefined) out[kv.name] = value;
    }
    return out;
  }
}

/** The command and the package's spelling for each kind of package, unless a runtime hint says. */
const RUNNERS: Record<string, { command: string; before: string[] }> = {
  npm: { command: "npx", before: ["-y"] },
  pypi: { command: "uvx", before: [] },
  oci: { command: "docker", before: ["run", "--rm", "-i"] },
  nuget: { command: "dnx", before: [] },
};

/** Extra words a runtime takes before the package, whoever chose it. */
const HINT_DEFAULTS: Record<string, string[]> = {
  npx: ["-y"],
  docker: ["run", "--rm", "-i"],
};

function packageSpec(pkg: RegistryPackage): string {
  const v = pkg.version;
  switch (pkg.registryType) {
    case "oci": {
      const tagged = /@sha256:|:[^/]+$/.test(pkg.identifier);
      return tagged || !v ? pkg.identifier : `${pkg.identifier}:${v}`;
    }
    case "pypi":
    case "npm":
    case "nuget":
      return v ? `${pkg.identifier}@${v}` : pkg.identifier;
    default:
      return pkg.identifier;
  }
}

function fromPackage(pkg: RegistryPackage, inputs: Inputs): Record<string, unknown> {
  const runner = RUNNERS[pkg.registryType];
  const command = pkg.runtimeHint || runner.command;
  const before = pkg.runtimeHint ? (HINT_DEFAULTS[pkg.runtimeHint] ?? []) : runner.before;
  const env = inputs.record(pkg.environmentVariables, "env");
  const runtime = inputs.args(pkg.runtimeArguments);
  const args = [...before.filter((w) => !runtime.includes(w)), ...runtime];
  // A container sees only the variables it is given.
  if (command === "docker") { for (const name of Object.keys(env)) args.push("-e", name); }
  args.push(packageSpec(pkg));
  if (command === "dnx") args.push("--yes");
  const rest = inputs.args(pkg.packageArguments);
  if (command === "dnx" && rest.length) args.push("--");
  args.push(...rest);
  const entry: Record<string, unknown> = { command, args };
  if (Object.keys(env).length) entry.env = env;
  return entry;
}

function fromRemote(remote: RegistryTransport, inputs: Inputs): Record<string, unknown> {
  const url = inputs.resolve(
    { value: remote.url ?? "", variables: remote.variables },
    "url",
    "url",
    true,
  ) ?? "";
  const entry: Record<string, unknown> = { type: remote.type === "sse" ? "sse" : "http", url };
  const headers = inputs.record(remote.headers, "header");
  if (Object.keys(headers).length) entry.headers = headers;
  return entry;
}

/** Why a package cannot become an entry, or undefined when it can. */
function unusable(pkg: RegistryPackage): string | undefined {
  const transport = pkg.transport?.type ?? "stdio";
  if (transport !== "stdio") {
    return `runs as a local ${transport} service, which mcpx does not start (start it yourself ` +
      `and add its URL)`;
  }
  if (pkg.registryType === "mcpb") return "is an MCP bundle (.mcpb), which mcpx does not unpack";
  if (!RUNNERS[pkg.registryType] && !pkg.runtimeHint) {
    return `comes from the "${pkg.registryType}" registry, which mcpx has no runner for`;
  }
  return undefined;
}

/**
 * Translates a registry entry into an `mcpServers` entry (rules in the module
 * documentation).
 *
 * @param server The entry's `server` object.
 * @param options.as The name to write it under (default: the short name).
 * @returns The translation, with what the caller must set and what did not translate.
 * @throws {RangeError} When the entry offers neither a remote nor a package
 *   mcpx can run (the message says what it offers and why each cannot run).
 * @example
 * ```ts
 * import { translateRegistryServer } from "./registry_entry.ts";
 * const t = translateRegistryServer({
 *   name: "io.github.example/weather-mcp", version: "0.5.0",
 *   packages: [{ registryType: "npm", identifier: "weather-mcp", version: "0.5.0" }],
 * });
 * if (t.name !== "weather_mcp" || (t.entry.args as string[])[1] !== "weather-mcp@0.5.0") {
 *   throw new Error();
 * }
 * ```
 */
export function translateRegistryServer(
  server: RegistryServer,
  options: { as?: string } = {},
): Translation {
  const name = options.as ?? registryShortName(server.name);
  const inputs = new Inputs();
  const notes: string[] = [];
  const remotes = [...(server.remotes ?? [])].filter((r) => r.url)
    .sort((a, b) => Number(a.type === "sse") - Number(b.type === "sse"));
  const packages = server.packages ?? [];
  const describe = (p: RegistryPackage) => `${p.registryType} ${packageSpec(p)}`;
  let entry: Record<string, unknown>;
  let via: Translation["via"];
  let summary: string;
  if (remotes.length > 0) {
    entry = fromRemote(remotes[0], inputs);
    via = "remote";
    summary = `${remotes[0].type} ${remotes[0].url}`;
    if (packages.length) {
      notes.push(`also published as ${packages.map(describe).join(", ")}; the remote is used`);
    }
  } else {
    const why = packages.map((p) => ({ p, reason: unusable(p) }));
    const usable = why.find((w) => w.reason === undefined);
    if (!usable) {
      const offered = why.map((w) => `${describe(w.p)} ${w.reason}`);
      throw new RangeError(
        `${server.name} offers no remote and no package mcpx can run` +
          (offered.length ? `: ${offered.join("; ")}` : " (its entry lists neither)"),
      );
    }
    entry = fromPackage(usable.p, inputs);
    via = "package";
    summary = `${describe(usable.p)} (${entry.command})`;
    for (const w of why) {
      if (w.p !== usable.p) {
        notes.push(`${describe(w.p)} ${w.reason ?? "is another way to run it; not used"}`);
      }
    }
  }
  if (server.description) entry.mcpx = { description: server.description };
  return { name, entry, via, summary, needs: inputs.needs, optional: inputs.optional, notes };
}

/**
 * Literal secrets of an imported server made `${VAR}` references, for
 * `mcpx import --write` into a project's configuration file (a file that may
 * be committed): a token another host keeps in a user's private file must not
 * land verbatim in it. Each value config/secrets.ts counts as a literal secret
 * (an `env` value, a header's credentials, an `auth` value, a secret flag's
 * argument, a URL's user name, password or key) is replaced by a reference to
 * a variable, and the variable is reported so the person sets it, as `mcpx
 * registry add` reports the variables a registry entry needs (decision 0055).
 *
 * @module
 */

import { SECRET_NAME } from "../core/redact.ts";
import { configSecrets } from "./secrets.ts";
import { variableName } from "./registry_entry.ts";

/** A variable an entry now reads where a literal secret was. */
export interface SecretVariable {
  /** The variable to set (`BRAVE_API_KEY`). */
  variable: string;
  /** Where the value was, in the entry (`env BRAVE_API_KEY`, `headers Authorization`). */
  place: string;
}

/** What {@link referenceSecrets} made of an entry. */
export interface ReferencedEntry {
  entry: Record<string, unknown>;
  /** Variables to set, one per secret value, in the order found. */
  variables: SecretVariable[];
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A value that looks generated: long, one word, letters and digits. */
const RANDOM = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_\-+=.~/]{16,}$/;

/**
 * Whether a header value config/secrets.ts counts is worth a variable here:
 * not a whole `Scheme token` value (its token is counted on its own), and in a
 * header whose name does not say credential (`Accept`) only a value that looks
 * generated.
 */
function headerSecret(entry: Record<string, unknown>, header: string, value: string): boolean {
  const raw = (entry.headers as Record<string, unknown> | undefined)?.[header];
  if (value === raw && /^\S+\s+\S/.test(value)) return false;
  return SECRET_NAME.test(header) || RANDOM.test(value);
}

/**
 * Replaces an entry's literal secrets by `${VAR}` references.
 *
 * A value under `env.KEY` is read from `$KEY` (the variable the server reads
 * anyway); any other from `$<SERVER>_<PLACE>` (`GITHUB_AUTHORIZATION` for
 * `headers.Authorization` of server `github`). The same value in two places
 * is one variable; a name already used for another value gets `_2`, `_3`….
 *
 * @param name The server's name.
 * @param entry Its translated entry (config/host_servers.ts).
 * @returns The entry with references in place of secrets (`entry` itself when it has none) and
 *   the variables to set.
 * @example
 * ```ts
 * import { referenceSecrets } from "./import_secrets.ts";
 * const r = referenceSecrets("gh", { url: "https://x.test/mcp",
 *   headers: { Authorization: "Bearer ghp_1234567890abcdef" } });
 * if ((r.entry.headers as Record<string, string>).Authorization !== "Bearer ${GH_AUTHORIZATION}") {
 *   throw new Error();
 * }
 * ```
 */
export function referenceSecrets(name: string, entry: Record<string, unknown>): ReferencedEntry {
  const secrets = configSecrets({ mcpServers: { [name]: entry } }, {});
  const byValue = new Map<string, SecretVariable>();
  const used = new Set<string>();
  const prefix = `\${mcpServers.${name}.`;
  for (const secret of secrets) {
    if (byValue.has(secret.value) || !secret.reference.startsWith(prefix)) continue;
    const path = secret.reference.slice(prefix.length, -1).split(".");
    if (path[0] === "headers" && !headerSecret(entry, path[1], secret.value)) continue;
    const place = path.join(" ");
    let base = path[0] === "env" && VARIABLE.test(path[1] ?? "")
      ? path[1]
      : variableName(`${name}_${(path[0] === "headers" ? path.slice(1) : path).join("_")}`);
    if (!VARIABLE.test(base)) base = `_${base}`;
    let variable = base;
    for (let n = 2; used.has(variable); n++) variable = `${base}_${n}`;
    used.add(variable);
    byValue.set(secret.value, { variable, place });
  }
  if (byValue.size === 0) return { entry, variables: [] };
  // Longest first, so a secret that contains another is replaced whole.
  const values = [...byValue.keys()].sort((a, b) => b.length - a.length);
  const replaced = new Set<string>();
  const rewrite = (text: string): string => {
    let out = text;
    for (const value of values) {
      if (!out.includes(value)) continue;
      out = out.replaceAll(value, () => `\${${byValue.get(value)!.variable}}`);
      replaced.add(value);
    }
    return out;
  };
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === "string") return key === "command" ? value : rewrite(value);
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return value;
  };
  const out = walk(entry) as Record<string, unknown>;
  // A value only found decoded (a Basic header's `user:password`) has no text of its own to
  // replace: its encoded form was.
  return { entry: out, variables: [...byValue].filter(([v]) => replaced.has(v)).map(([, s]) => s) };
}

/**
 * What a script gets for a namespace without tools: an object that throws a
 * {@link NamespaceError} saying why on any use, instead of a bare `{}` whose
 * `memory.create_entities(…)` fails as "is not a function" (issue 8, "The
 * first start on a fresh machine"; spec 000, "Honest failure reporting").
 * Part of the generated client: client/bundle.ts inlines it, so it imports
 * nothing and runs unchanged under deno, bun and node.
 *
 * @module
 */

/** Why a namespace has no tools. */
export type NamespaceErrorCode =
  /** Its server failed to start or to list its tools; `detail` is the first line of the error. */
  | "listing-failed"
  /** Its server listed no tools. */
  | "no-tools"
  /** The configuration hides every tool its server lists (`tools` / `excludeTools`). */
  | "all-hidden"
  /**
   * Its server belongs to a project's configuration not trusted with what it
   * runs (decision 0018); `detail` is the sentence naming the command that trusts it.
   */
  | "untrusted";

/** Why a namespace has no tools, as the generator knew it. */
export interface EmptyNamespace {
  namespace: string;
  /** Server name as configured. */
  server: string;
  code: NamespaceErrorCode;
  /** `listing-failed`: the first line of the listing error. */
  detail?: string;
  /** `all-hidden`: how many tools the configuration hides. */
  hidden?: number;
}

/** A script used a namespace that has no tools; `code` says why. */
export class NamespaceError extends Error {
  /** Why the namespace has no tools. */
  code: NamespaceErrorCode;
  /** Namespace identifier (`memory`). */
  namespace: string;
  /** Server name as configured. */
  server: string;
  /** The member the script asked for (`create_entities`). */
  member: string;

  constructor(info: EmptyNamespace, member: string) {
    super(`${info.namespace}.${member}: ${emptyNamespaceReason(info)}`);
    this.name = "NamespaceError";
    this.code = info.code;
    this.namespace = info.namespace;
    this.server = info.server;
    this.member = member;
  }
}

/**
 * The sentence saying why a namespace has no tools, with what to do.
 *
 * @param info The namespace and its reason.
 * @returns e.g. `namespace memory has no tools: its server failed to start (…); …`.
 */
export function emptyNamespaceReason(info: EmptyNamespace): string {
  const ns = info.namespace;
  switch (info.code) {
    case "listing-failed":
      return `namespace ${ns} has no tools: its server failed to start (${
        info.detail ?? "no message"
      }); ` +
        `\`mcpx status\` shows why, \`mcpx refresh ${ns}\` lists it again`;
    case "untrusted":
      return `namespace ${ns} has no tools: ${info.detail ?? "its server is not trusted"}`;
    case "all-hidden":
      return `namespace ${ns} has no tools: the configuration hides all ${info.hidden ?? 0} its ` +
        `server lists (mcpServers.${info.server}.mcpx.tools / excludeTools)`;
    default:
      return `namespace ${ns} has no tools: its server lists none`;
  }
}

/**
 * Members a runtime or a library probes on any object; reading them must not
 * throw (client/namespace_object.ts reads them the same way).
 */
export const PROBED: ReadonlySet<string> = new Set([
  "then",
  "toJSON",
  "constructor",
  "valueOf",
  "toString",
  "__proto__",
]);

/**
 * The object standing for a namespace without tools: reading any tool name
 * (or anything else a script would call) throws a {@link NamespaceError}.
 * Symbols and the members runtimes probe (`then` for `await`, `toJSON`,
 * `constructor`, `valueOf`, `toString`) read as on an empty object.
 *
 * @param info The namespace and why it has no tools.
 * @param own The client's own members (`$prompts`, `$resources`), which work
 *   without tools: a server may publish prompts or resources and no tool.
 * @returns An empty, frozen-looking object; typed `any` so it stands in for
 *   the namespace's (empty) interface.
 * @example
 * ```ts
 * import { namespaceWithoutTools } from "./namespace_guard.ts";
 * const memory = namespaceWithoutTools({ namespace: "memory", server: "memory", code: "no-tools" });
 * try {
 *   memory.create_entities({});
 *   throw new Error("no throw");
 * } catch (error) {
 *   if ((error as { code?: string }).code !== "no-tools") throw error;
 * }
 * ```
 */
// deno-lint-ignore no-explicit-any
export function namespaceWithoutTools(
  info: EmptyNamespace,
  own: Record<string, unknown> = {},
): any {
  return new Proxy({}, {
    get(target, key) {
      if (typeof key === "symbol" || PROBED.has(key)) return Reflect.get(target, key);
      if (key.startsWith("$") && Object.hasOwn(own, key)) return own[key];
      throw new NamespaceError(info, key);
    },
  });
}

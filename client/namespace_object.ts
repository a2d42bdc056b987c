/**
 * The object a script gets for a namespace with tools (`everything`,
 * `tools.everything`): one member per tool, under its function identifier
 * and its real name.
 *
 * A tool's name is whatever its server chose, so the object has no
 * prototype and every member is defined with `Object.defineProperty`: a tool
 * named `toString`, `constructor`, `hasOwnProperty` or `valueOf` is that tool
 * (not `Object.prototype`'s function), and one named `__proto__` is a member
 * like any other (an object literal would have made it the prototype).
 *
 * A namespace is never a thenable: `await ns`, or returning a namespace from
 * `mcpx exec`, must not call a tool. So a tool named `then` is not a function
 * member; `ns.then` (and `ns["then"]`) is an object whose `call(args,
 * options)` calls the tool (docs/scripts.md, decision 0025).
 *
 * Members whose names start with `$` are the client's own (`$prompts`,
 * `$resources`: client/content_api.ts), never enumerable, and no
 * tool reaches one: no tool identifier starts with `$`
 * (config/identifiers.ts), and a real name that does is not aliased.
 *
 * Reading a member that is no tool (`cd.take_screenshotx`) throws an
 * {@link UnknownToolError} naming it with the CLI's "did you mean"
 * (core/nearest.ts), rather than leaving `undefined` to fail as "is not a
 * function"; the members runtimes probe (`then`, `toJSON`, …:
 * namespace_guard.ts `PROBED`) and symbols read as on a plain object.
 *
 * A namespace whose server was still starting when the client was made
 * (its first listing in progress: decision 0010) has no tools to check a
 * name against: built with `passThrough`, any other member is a function
 * that calls the tool of that name, and the daemon waits for the server's
 * start as `mcpx call` does (an unknown name is then the daemon's error).
 *
 * Part of the generated client: client/bundle.ts inlines it with the
 * modules it imports, which import nothing outside the client's inputs, so it
 * runs unchanged under deno, bun and node.
 *
 * @module
 */

import { didYouMean, nearest } from "../core/nearest.ts";
import { PROBED } from "./namespace_guard.ts";

/** A script read a tool its namespace does not have; `suggestions` are the nearest, as `mcpx call` offers them. */
export class UnknownToolError extends Error {
  readonly code = "unknown-tool";
  /** Namespace identifier (`cd`). */
  readonly namespace: string;
  /** The member the script asked for (`take_screenshotx`). */
  readonly tool: string;
  /** `namespace.tool` of the nearest tools, best first (may be empty). */
  readonly suggestions: string[];

  constructor(namespace: string, tool: string, suggestions: string[]) {
    super(
      `unknown tool "${namespace}.${tool}"${didYouMean(suggestions)} ` +
        "Run `mcpx search <words>` to find a tool.",
    );
    this.name = "UnknownToolError";
    this.namespace = namespace;
    this.tool = tool;
    this.suggestions = suggestions;
  }
}

/** A tool's function in the generated client: arguments and call options in, the result out. */
export type ToolFunction = (args?: any, options?: any) => Promise<any>;

/** The member standing for a tool named `then`, which a namespace cannot hold as a function. */
export interface ThenTool {
  /** Calls the tool named `then`. */
  call: ToolFunction;
}

/**
 * Builds a namespace's object.
 *
 * @param namespace The namespace identifier (what the object says it is when made a string).
 * @param members `[function identifier, function]` per tool, in listing order.
 * @param aliases `[real name, function identifier]` per tool whose real name
 *   differs (`["get-sum", "get_sum"]`): the same function under its real name,
 *   unless a member of that name exists already or the name starts with `$`.
 * @param own The client's own members (`$prompts`, `$resources`), each name starting with `$`.
 * @param passThrough For a namespace whose server is still starting: the
 *   function of a tool the object does not hold (called with the member's
 *   name), instead of throwing {@link UnknownToolError}. The probed members
 *   (`then`, `toJSON`, …) still read as on a plain object.
 * @returns An object without a prototype; typed `any` so the generator's
 *   interface describes it.
 * @example
 * ```ts
 * import { namespaceObject } from "./namespace_object.ts";
 * const call = (name: string) => (args?: unknown) => Promise.resolve({ name, args });
 * const ns = namespaceObject("odd", [["toString", call("toString")], ["then", call("then")]], []);
 * if (typeof ns.toString !== "function" || typeof ns.then !== "object") throw new Error();
 * if ((await ns.then.call({})).name !== "then" || String(ns) !== "[namespace odd]") throw new Error();
 * ```
 */
export function namespaceObject(
  namespace: string,
  members: readonly (readonly [string, ToolFunction])[],
  aliases: readonly (readonly [string, string])[],
  own: Record<string, unknown> = {},
  passThrough?: (tool: string) => ToolFunction,
): any {
  const ns = Object.create(null);
  const define = (name: string, fn: ToolFunction) => {
    const value: ToolFunction | ThenTool = name === "then" ? Object.freeze({ call: fn }) : fn;
    Object.defineProperty(ns, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  };
  const byName = new Map<string, ToolFunction>();
  for (const [name, fn] of members) {
    byName.set(name, fn);
    define(name, fn);
  }
  for (const [real, fn] of aliases) {
    const target = byName.get(fn);
    if (target && !byName.has(real) && !real.startsWith("$")) {
      byName.set(real, target);
      define(real, target);
    }
  }
  for (const [name, value] of Object.entries(own)) {
    if (name.startsWith("$")) Object.defineProperty(ns, name, { value, enumerable: false });
  }
  // Without a prototype a template string or `String(ns)` would throw; say what it is instead.
  Object.defineProperty(ns, Symbol.toPrimitive, { value: () => `[namespace ${namespace}]` });
  return new Proxy(ns, {
    get(target, key, receiver) {
      if (typeof key === "symbol" || key in target || PROBED.has(key)) {
        return Reflect.get(target, key, receiver);
      }
      if (passThrough) return passThrough(key);
      const near = nearest(key, Object.keys(target)).map((fn) => `${namespace}.${fn}`);
      throw new UnknownToolError(namespace, key, near);
    },
  });
}

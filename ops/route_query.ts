/**
 * A streaming route's query string as its input (ops/op.ts `stream`; decision
 * 0080): `GET /v1/events?since=0&kind=server&kind=call.finished` is the
 * input `{ since: "0", kind: ["server", "call.finished"] }`, held to the
 * route's zod input like a body (ops/route_input.ts). A parameter given twice
 * fills a list; a boolean field reads `true`, `false`, `1`, `0` or an empty
 * value (`?follow` alone is true); a parameter the route does not take is a
 * usage error naming it and those it does.
 *
 * @module
 */

import * as z from "zod";
import { UsageError } from "../core/errors.ts";
import type { OpSpec } from "./op.ts";
import { routeInput } from "./route_input.ts";

/** Each route's fields' JSON types, computed once. */
const typesOf = new WeakMap<OpSpec, Record<string, string>>();

function fieldTypes(route: OpSpec): Record<string, string> {
  let types = typesOf.get(route);
  if (!types) {
    const properties =
      (z.toJSONSchema(route.input, { io: "input", unrepresentable: "any" }).properties ??
        {}) as Record<string, { type?: unknown }>;
    types = Object.fromEntries(
      Object.entries(properties).map((
        [name, p],
      ) => [name, typeof p.type === "string" ? p.type : ""]),
    );
    typesOf.set(route, types);
  }
  return types;
}

/** The words a boolean parameter takes. */
const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  "": true,
  true: true,
  "1": true,
  false: false,
  "0": false,
};

/**
 * The route's input from `query`.
 *
 * @param fields The fields a query may set (the route's own; the caller's are
 *   not query parameters).
 * @throws {UsageError} For a parameter the route does not take, a boolean that
 *   is not one of the words above, or what {@link routeInput} refuses.
 * @example
 * ```ts
 * import { queryInput } from "./route_query.ts";
 * import { events } from "./event_ops.ts";
 * const input = queryInput(events, new URLSearchParams("since=0&kind=server&kind=call"), [
 *   "since", "kind", "server", "session", "follow",
 * ]);
 * if (input.since !== "0" || input.kind?.length !== 2) throw new Error();
 * ```
 */
export function queryInput<S extends OpSpec>(
  route: S,
  query: URLSearchParams,
  fields: readonly string[],
): z.output<S["input"]> {
  const types = fieldTypes(route);
  const raw: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    if (!fields.includes(name)) {
      throw new UsageError(
        `${route.name} takes no parameter ${JSON.stringify(name)}; it takes ${fields.join(", ")}`,
      );
    }
    const values = query.getAll(name);
    if (types[name] === "boolean") {
      const word = values.at(-1)!.toLowerCase();
      if (!(word in BOOLEAN_WORDS)) {
        throw new UsageError(
          `${route.name}'s ${name} must be true or false, got ${JSON.stringify(values.at(-1))}`,
        );
      }
      raw[name] = BOOLEAN_WORDS[word];
    } else raw[name] = values.length > 1 ? values : values[0];
  }
  return routeInput(route, raw);
}

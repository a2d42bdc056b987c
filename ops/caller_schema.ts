/**
 * The caller's fields as a zod shape, built from their one declaration
 * (wire/caller.ts `CALLER_FIELDS`) and spread into every route's input
 * (ops/routes.ts): every request body may carry them, since the CLI sends
 * them with each request and daemon/http.ts reads `traceIds`, `trustCheck`,
 * `notices` and the ids of every one. ops/routes_test.ts holds the shape and
 * the interface equal.
 *
 * @module
 */

import * as z from "zod";
import {
  CALLER_FIELDS,
  type CallerContext,
  type CallerField,
  type RequestCaller,
} from "../wire/caller.ts";
import { selectionFromWire } from "../config/profiles.ts";

/** The selection as sent: `skipDefault` and `all` default to false. */
const selectionSchema = z.object({
  profiles: z.array(z.string()).default([]),
  skipDefault: z.boolean().default(false),
  all: z.boolean().default(false),
});

type Fields = typeof CALLER_FIELDS;

type ZodOf<T> = T extends "string" ? z.ZodString
  : T extends "integer" ? z.ZodNumber
  : T extends "boolean" ? z.ZodBoolean
  : T extends "selection" ? typeof selectionSchema
  : never;

/** The zod shape of the caller's fields, each optional. */
export type CallerShape = { [K in keyof Fields]: z.ZodOptional<ZodOf<Fields[K]["type"]>> };

function zodOf(field: CallerField): z.ZodType {
  switch (field.type) {
    case "string":
      return z.string();
    case "integer":
      return z.number().int();
    case "boolean":
      return z.boolean();
    case "selection":
      return selectionSchema;
  }
}

/** The caller's fields, for `z.object({ ...CALLER_SHAPE, … })`. */
export const CALLER_SHAPE: CallerShape = Object.fromEntries(
  Object.entries(CALLER_FIELDS).map((
    [name, field],
  ) => [name, zodOf(field).optional().describe(field.description)]),
) as unknown as CallerShape;

/**
 * A route's body: its own fields, then the caller's it does not declare
 * itself (a field of both, such as `endSession`'s `session`, is the route's),
 * so a usage error names the route's own fields first.
 */
export function withCaller<S extends z.ZodRawShape>(
  shape: S,
): z.ZodObject<S & Omit<CallerShape, keyof S>> {
  const caller = Object.fromEntries(
    Object.entries(CALLER_SHAPE).filter(([field]) => !Object.hasOwn(shape, field)),
  );
  return z.object({ ...shape, ...caller }) as z.ZodObject<S & Omit<CallerShape, keyof S>>;
}

/** The caller's fields alone, as a schema (what a body with no fields of its own takes). */
export const callerSchema: z.ZodObject<CallerShape> = z.object(CALLER_SHAPE);

/**
 * The {@link CallerContext} of a validated request: the fields the engine
 * reads, an empty string left out where it means "not sent", the selection's
 * profile names trimmed and each once (config/profiles.ts `selectionFromWire`).
 *
 * @param input A route's validated input (it holds the caller's fields).
 */
export function callerOf(input: RequestCaller): CallerContext {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(CALLER_FIELDS) as [string, CallerField][]) {
    if (field.readBy !== "engine") continue;
    const value = (input as Record<string, unknown>)[name];
    if (value === undefined || (value === "" && field.emptyIsAbsent)) continue;
    out[name] = name === "selection" ? selectionFromWire(value) : value;
  }
  return out as CallerContext;
}

/**
 * The fields a route declares itself, in its order: not the caller's that
 * {@link withCaller} added (by reference, so a field of a caller's name the
 * route declares, such as `endSession`'s `session`, is the route's). What a
 * streaming route takes as query parameters (ops/route_query.ts).
 */
export function ownFields(input: z.ZodType): string[] {
  const shape = (input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const caller = CALLER_SHAPE as unknown as Record<string, unknown>;
  return Object.keys(shape).filter((field) => shape[field] !== caller[field]);
}

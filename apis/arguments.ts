/**
 * Checking a tool's arguments against its operation's input schema before a
 * request is sent (decision 0053): a wrong type, a value outside an `enum`
 * or a bound, a malformed body is refused naming the argument, the rule and
 * the value, instead of reaching the service (which may accept it, or
 * answer something less clear). The schema is JSON Schema 2020-12 as
 * OpenAPI 3.1 writes it; OpenAPI 3.0's `nullable` is understood too. The
 * validator is ajv; a schema it cannot compile (OpenAPI 3.0's boolean
 * `exclusiveMaximum`, say) is not checked here, and the service judges.
 *
 * @module
 */

import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { McpxError } from "../core/errors.ts";
import type { ApiOperation } from "./operations.ts";

/** Formats (`int32`, `uuid`) are OpenAPI's hints, not checked; unknown keywords are allowed. */
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

/** Compiled validators by schema object; null for a schema ajv cannot compile. */
const compiled = new WeakMap<object, ValidateFunction | null>();

/** How many problems one message names at most. */
const SHOWN = 3;

/**
 * Checks `args` against `operation`'s input schema.
 *
 * @param operation The operation (its `inputSchema` is read).
 * @param args The tool's argument object.
 * @throws {McpxError} Code `api-arguments`, naming each argument that breaks
 *   the schema, the rule and the value given, e.g. `listPets: argument "limit"
 *   must be integer, got "x"`.
 */
export function checkArguments(operation: ApiOperation, args: Record<string, unknown>): void {
  const validate = validatorOf(operation.inputSchema);
  if (validate === null || validate(args)) return;
  const problems = (validate.errors ?? []).slice(0, SHOWN).map((e) => describeError(e, args));
  const more = (validate.errors?.length ?? 0) - SHOWN;
  throw new McpxError(
    "api-arguments",
    `${operation.tool}: ${problems.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}; ` +
      "`mcpx types` or the tool's input schema shows what each argument takes",
  );
}

function validatorOf(schema: object): ValidateFunction | null {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = null;
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/** One ajv error as `argument "limit" must be integer, got "x"`. */
function describeError(error: ErrorObject, args: Record<string, unknown>): string {
  const path = error.instancePath.split("/").slice(1).map((p) =>
    p.replaceAll("~1", "/").replaceAll("~0", "~")
  );
  if (path.length === 0) return `the arguments ${error.message ?? "are invalid"}`;
  let value: unknown = args;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  const [name, ...inner] = path;
  const where = `argument ${JSON.stringify(name)}${
    inner.map((k) => `[${JSON.stringify(k)}]`).join("")
  }`;
  const allowed = error.keyword === "enum"
    ? `: ${
      (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v))
        .join(", ")
    }`
    : "";
  return `${where} ${error.message ?? "is invalid"}${allowed}, got ${JSON.stringify(value)}`;
}

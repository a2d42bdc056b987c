/**
 * The caller's context sent as HTTP headers, for a request whose body is
 * something else: `POST /v1/call/<namespace>/<tool>` takes the tool's
 * arguments as its whole body, so who is calling (its session, working
 * directory, pid, … which choose the scope key its instance is leased
 * under) travels as `X-Mcpx-<Field>` headers instead. The header names come
 * from the one declaration of the fields (wire/caller.ts `CALLER_FIELDS`):
 * `session` is `X-Mcpx-Session`, `gitWorkTree` is `X-Mcpx-Git-Work-Tree`.
 *
 * @module
 */

import { CALLER_FIELDS, type CallerField } from "./caller.ts";

/** The header that carries caller field `field` (`gitDir` → `x-mcpx-git-dir`). */
export function callerHeaderName(field: string): string {
  return `x-mcpx-${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Every caller header with its field's type and description, for docs and the OpenAPI document. */
export function callerHeaders(): { header: string; field: string; spec: CallerField }[] {
  return Object.entries(CALLER_FIELDS).map(([field, spec]) => ({
    header: callerHeaderName(field),
    field,
    spec: spec as CallerField,
  }));
}

/**
 * The caller fields the headers carry, typed as the body would carry them:
 * an integer header as a number, a boolean as `true`/`false`, the selection
 * as its JSON text. The route's schema checks them after (ops/route_input.ts).
 *
 * @param headers The request's headers.
 * @returns Only the fields whose header is present.
 * @throws {TypeError} naming the header, its value and the form it must take,
 *   when an integer, boolean or selection header cannot be read as one.
 */
export function callerFromHeaders(headers: Headers): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { header, field, spec } of callerHeaders()) {
    const text = headers.get(header);
    if (text === null) continue;
    switch (spec.type) {
      case "string":
        out[field] = text;
        break;
      case "integer":
        if (!/^-?\d+$/.test(text.trim())) {
          throw new TypeError(
            `header ${header} must be a whole number, got ${JSON.stringify(text)}`,
          );
        }
        out[field] = Number(text);
        break;
      case "boolean":
        if (!/^(true|false)$/i.test(text.trim())) {
          throw new TypeError(
            `header ${header} must be true or false, got ${JSON.stringify(text)}`,
          );
        }
        out[field] = text.trim().toLowerCase() === "true";
        break;
      case "selection":
        try {
          out[field] = JSON.parse(text);
        } catch {
          throw new TypeError(
            `header ${header} must be JSON {"profiles":[…],"skipDefault":false,"all":false}, ` +
              `got ${JSON.stringify(text)}`,
          );
        }
        break;
    }
  }
  return out;
}

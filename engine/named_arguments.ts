/**
 * Arguments given as `key=value` to a prompt (`prompts/get`) or a resource
 * template (`resources/read` of an expanded `uriTemplate`), checked against
 * what the server declared before anything is sent: a name it does not take
 * is named with the nearest one it does, and every required one missing is
 * named at once, so one correction is enough (spec 000, "The half of MCP
 * that is not tools"). Prompt arguments are strings (MCP 2025-11-25
 * `GetPromptRequest.params.arguments`); a template is expanded with the
 * SDK's RFC 6570 `UriTemplate`.
 *
 * @module
 */

import { UriTemplate } from "@modelcontextprotocol/client";
import { UsageError } from "../core/errors.ts";
import { nearest } from "../core/nearest.ts";

/** One argument a prompt declares (MCP `PromptArgument`). */
export interface PromptArgumentInfo {
  name: string;
  description?: string;
  required?: boolean;
}

/** `; did you mean a or b?`, or `.` when nothing is near. */
function suggestion(name: string, known: string[]): string {
  const near = nearest(name, known);
  if (near.length === 0) return ".";
  const list = near.length === 1 ? near[0] : `${near.slice(0, -1).join(", ")} or ${near.at(-1)}`;
  return `; did you mean ${list}?`;
}

/** `city (required), state`, or `none`. */
function declared(args: readonly PromptArgumentInfo[]): string {
  return args.length
    ? args.map((a) => `${a.name}${a.required ? " (required)" : ""}`).join(", ")
    : "none";
}

/**
 * Checks `given` against the arguments prompt `ref` declares.
 *
 * @param ref The prompt as the caller writes it (`everything.args-prompt`), for messages.
 * @param args What the prompt declares (absent: none).
 * @param given The caller's `key=value` pairs.
 * @throws {UsageError} naming the first unknown argument (with the nearest
 *   declared one and the whole list), or every required argument missing.
 * @example
 * ```ts
 * import { checkPromptArguments } from "./named_arguments.ts";
 * checkPromptArguments("ns.p", [{ name: "city", required: true }], { city: "Paris" });
 * ```
 */
export function checkPromptArguments(
  ref: string,
  args: readonly PromptArgumentInfo[] | undefined,
  given: Record<string, string>,
): void {
  const known = (args ?? []).map((a) => a.name);
  for (const name of Object.keys(given)) {
    if (known.includes(name)) continue;
    throw new UsageError(
      `prompt ${ref} takes no argument "${name}"${suggestion(name, known)} ` +
        `Its arguments: ${declared(args ?? [])}.`,
    );
  }
  const missing = (args ?? []).filter((a) => a.required && !Object.hasOwn(given, a.name));
  if (missing.length) {
    const names = missing.map((a) => a.name);
    throw new UsageError(
      `prompt ${ref} needs ${names.length > 1 ? "the arguments" : "the argument"} ` +
        `${names.join(", ")}; pass ${names.length > 1 ? "them" : "it"} as key=value: ` +
        `mcpx prompts ${ref} ${names.map((n) => `${n}=…`).join(" ")}`,
    );
  }
}

/**
 * Expands a resource template with the caller's `key=value` pairs.
 *
 * @param template A `uriTemplate` (RFC 6570), e.g. `demo://resource/dynamic/text/{resourceId}`.
 * @param given The values; every variable of the template must have one.
 * @returns The URI.
 * @throws {UsageError} for a template the SDK cannot parse, a name the
 *   template does not have (with the nearest one), or every variable left
 *   without a value.
 * @example
 * ```ts
 * import { expandTemplate } from "./named_arguments.ts";
 * if (expandTemplate("demo://t/{id}", { id: "7" }) !== "demo://t/7") throw new Error();
 * ```
 */
export function expandTemplate(template: string, given: Record<string, string>): string {
  let parsed: UriTemplate;
  try {
    parsed = new UriTemplate(template);
  } catch (error) {
    throw new UsageError(`"${template}" is not a URI template: ${(error as Error).message}`);
  }
  const names = parsed.variableNames;
  for (const name of Object.keys(given)) {
    if (names.includes(name)) continue;
    throw new UsageError(
      `the template ${template} has no variable "${name}"${suggestion(name, names)} ` +
        `Its variables: ${names.length ? names.join(", ") : "none"}.`,
    );
  }
  const missing = names.filter((n) => !Object.hasOwn(given, n));
  if (missing.length) {
    throw new UsageError(
      `the template ${template} needs a value for ${missing.join(", ")}; pass ` +
        `${missing.map((n) => `${n}=…`).join(" ")} after the URI`,
    );
  }
  return parsed.expand(given);
}

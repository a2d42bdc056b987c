/**
 * How plain `mcpx serve` names what the configured servers offer besides
 * tools, so that two servers publishing the same name or URI stay apart and
 * every name leads back to its server (spec 000, "The half of MCP that is
 * not tools"; decision 0073):
 *
 * - a prompt is `<namespace>.<prompt>` (a namespace is an identifier, so it
 *   has no dot: the first dot splits the name);
 * - a resource is `mcpx://<namespace>/<uri>`, the upstream's URI
 *   percent-encoded as one path segment (`encodeURIComponent`: everything
 *   but `A–Z a–z 0–9 - _ . ! ~ * ' ( )`), so `test://static-text` is
 *   `mcpx://ns/test%3A%2F%2Fstatic-text`, and decoding
 *   (`decodeURIComponent` of what follows the namespace) gives the URI back
 *   exactly;
 * - a resource template is `mcpx://<namespace>/` and the upstream's template
 *   with its literal parts encoded the same way and its expressions
 *   (`{id}`, `{+path}`, `{?q}`) kept as written, so a client expanding it
 *   gets a URI that decodes to the upstream's template expanded with the
 *   same values. RFC 6570 writes every character of a value outside the
 *   unreserved set (`A–Z a–z 0–9 - . _ ~`) as `%XX`, and decoding takes
 *   those back too: a value of unreserved characters (`42`, `a-b_c.d~e`)
 *   reaches the upstream exactly as its own expansion would write it; any
 *   other value reaches it percent-decoded (`a b`, not `a%20b`).
 *
 * serve's own signature resources keep their URIs (`mcpx://types/<namespace>`,
 * `mcpx://types/<namespace>/<tool>`, decision 0050): the authority `types`
 * is mcpx's. A namespace named `types` has its resources one segment down,
 * under `mcpx://types/-/<uri>`: `-` is never a namespace (a namespace is an
 * identifier), so neither can be read as the other.
 *
 * @module
 */

/** The scheme of every URI serve names. */
export const SERVE_SCHEME = "mcpx://";

/** The authority of serve's signature resources (cli/serve/serve_resources.ts). */
export const TYPES_AUTHORITY = "types";

/** The segment under `mcpx://types/` that holds the namespace `types`'s own resources. */
export const TYPES_NAMESPACE_SEGMENT = "-";

/** A URI serve names, read back: one of its signature resources, or an upstream's resource. */
export type ServeUri =
  | { kind: "types"; path: string }
  | { kind: "upstream"; namespace: string; uri: string };

/** A URI or template that is not one serve names, or whose encoding is broken. */
export class ServeNameError extends Error {
  override name = "ServeNameError";
}

/** `<namespace>.<prompt>`. */
export function namespacedPrompt(namespace: string, prompt: string): string {
  return `${namespace}.${prompt}`;
}

/**
 * `[namespace, prompt]` of a `<namespace>.<prompt>` name.
 *
 * @throws {ServeNameError} For a name without a namespace (no dot, or a dot at either end).
 */
export function promptOf(name: string): [string, string] {
  const dot = name.indexOf(".");
  if (dot <= 0 || dot === name.length - 1) {
    throw new ServeNameError(
      `prompt "${name}" is not <namespace>.<prompt>; prompts/list names every prompt that way`,
    );
  }
  return [name.slice(0, dot), name.slice(dot + 1)];
}

/** Where the resources of `namespace` begin: `mcpx://<namespace>/`, or `mcpx://types/-/`. */
function prefixOf(namespace: string): string {
  return namespace === TYPES_AUTHORITY
    ? `${SERVE_SCHEME}${TYPES_AUTHORITY}/${TYPES_NAMESPACE_SEGMENT}/`
    : `${SERVE_SCHEME}${namespace}/`;
}

/**
 * The URI serve lists for `uri` of `namespace`.
 *
 * @throws {URIError} For a URI with a lone surrogate (it has no UTF-8 encoding).
 * @example
 * ```ts
 * import { namespacedUri } from "./serve_names.ts";
 * if (namespacedUri("ns", "test://static-text") !== "mcpx://ns/test%3A%2F%2Fstatic-text") {
 *   throw new Error();
 * }
 * ```
 */
export function namespacedUri(namespace: string, uri: string): string {
  return prefixOf(namespace) + encodeURIComponent(uri);
}

/** A template's literal parts and `{…}` expressions, in order (odd indexes are expressions). */
function templateParts(template: string): string[] {
  return template.split(/(\{[^{}]*\})/);
}

/**
 * The template serve lists for `template` of `namespace`: literal parts
 * encoded as {@link namespacedUri} encodes a URI, expressions kept.
 *
 * @throws {URIError} For a template with a lone surrogate.
 * @example
 * ```ts
 * import { namespacedTemplate } from "./serve_names.ts";
 * const t = namespacedTemplate("ns", "test://template/{id}/data");
 * if (t !== "mcpx://ns/test%3A%2F%2Ftemplate%2F{id}%2Fdata") throw new Error(t);
 * ```
 */
export function namespacedTemplate(namespace: string, template: string): string {
  return prefixOf(namespace) +
    templateParts(template).map((part, i) => i % 2 ? part : encodeURIComponent(part)).join("");
}

/**
 * Reads a URI serve named: a signature resource's path (what follows
 * `mcpx://types/`), or the namespace and the upstream's URI.
 *
 * @returns Undefined for a URI serve does not name (another scheme, no path).
 * @throws {ServeNameError} For a broken percent-encoding, or no URI after the namespace.
 */
export function serveUriOf(uri: string): ServeUri | undefined {
  return readName(uri, decodeURIComponent);
}

/**
 * Reads a template serve named (a `completion/complete` reference): the
 * namespace and the upstream's template, literal parts decoded and
 * expressions kept; a signature template's path as it is.
 *
 * @returns Undefined for a template serve does not name.
 * @throws {ServeNameError} For a broken percent-encoding.
 */
export function serveTemplateOf(template: string): ServeUri | undefined {
  return readName(
    template,
    (text) =>
      templateParts(text).map((part, i) => i % 2 ? part : decodeURIComponent(part)).join(""),
  );
}

function readName(name: string, decode: (text: string) => string): ServeUri | undefined {
  if (!name.startsWith(SERVE_SCHEME)) return undefined;
  const rest = name.slice(SERVE_SCHEME.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  const namespace = rest.slice(0, slash);
  let path = rest.slice(slash + 1);
  if (namespace === TYPES_AUTHORITY) {
    if (!path.startsWith(`${TYPES_NAMESPACE_SEGMENT}/`)) return { kind: "types", path };
    path = path.slice(TYPES_NAMESPACE_SEGMENT.length + 1);
  }
  if (path === "") {
    throw new ServeNameError(`${name} names no resource of ${namespace} after the namespace`);
  }
  let uri: string;
  try {
    uri = decode(path);
  } catch (error) {
    throw new ServeNameError(
      `${name} is not percent-encoded as serve lists it (${
        (error as Error).message
      }); resources/list and resources/templates/list give the names`,
    );
  }
  return { kind: "upstream", namespace, uri };
}

/**
 * Input fields a command's op and the daemon route its handler sends both
 * take, with one meaning: declared once here, so each has one description
 * wherever it is shown (a flag's help, a serve tool's input, the OpenAPI
 * document; issue 25, "no field has two descriptions"). A field whose shape
 * differs between the two — the command line's `30s` against the wire's
 * `timeoutMs`, `key=value` words against an object — is two fields, each
 * described where it is declared.
 *
 * @module
 */

import * as z from "zod";

/** `search --tag`. */
export const TAG = z.string().describe("only tools carrying this tag (exact match)");

/** `search --explain`. */
export const EXPLAIN = z.boolean().describe(
  "show, for each hit, which field each word matched and the score it added",
);

/** `call --task` and the `call` route's `task`. */
export const AS_TASK = z.boolean().describe(
  "run the call as a task and answer its handle (the MCP CreateTaskResult) at once; " +
    "`mcpx tasks` follows it",
);

/** `call --resume` and the `call` route's `resume`. */
export const RESUME = z.string().min(1).describe(
  "attach to the call a server's question (its id, elc-…) was asked in, without calling the " +
    "tool again",
);

/** A skill's URI: `skills <ns> <uri>` and `skillGet.uri`. */
export const SKILL_URI = z.string().min(1).describe("a skill's SKILL.md URI");

/** `skills --verify` and `skillGet.verify`. */
export const VERIFY = z.boolean().describe(
  "check the entry's manifest, then its root SKILL.md's size, SHA-256 digest, UTF-8 and " +
    "frontmatter against it (a mismatch is a failure)",
);

/** A resource's URI: `resources <ns> <uri>` and `resourceRead.uri`. */
export const RESOURCE_URI = z.string().min(1).describe(
  "the resource's URI, or a URI template's (RFC 6570)",
);

/** The name `sessionNew` gives the session it makes. */
export const NEW_SESSION_NAME = z.string().min(1).describe(
  "the session's name (default: a fresh 8-character one)",
);

/**
 * A command line that names its server directly (`mcpx ls <url>`,
 * `mcpx types <url> [tool…]`, `mcpx call <url> <tool> [json]`, or any of
 * them with `--stdio "cmd args…"`): the target's one-server configuration is
 * written under `<paths.state>/direct/` (a private file, decision 0033), and
 * the command runs against it with the target's namespace in place of the
 * URL, so the rest of mcpx sees an ordinary configuration.
 *
 * @module
 */

import {
  directDocument,
  directFileName,
  type DirectTarget,
  isDirectUrl,
  stdioTarget,
  urlTarget,
} from "../config/direct_target.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import { UsageError } from "../core/errors.ts";
import { join } from "../core/posix_path.ts";

/** The commands that take a direct target. */
export const DIRECT_COMMANDS: readonly string[] = [
  "ls",
  "types",
  "call",
  "prompts",
  "resources",
  "skills",
  "auth",
];

/** A command line rewritten for its direct target. */
export interface DirectCommand {
  /** The target's generated configuration file. */
  configPath: string;
  /** The command's words with the target replaced by its namespace (`call ns.tool json`). */
  words: string[];
  /** The target as messages show it (no credentials). */
  target: DirectTarget;
}

/**
 * The direct target of a command line, or undefined when it names none (its
 * first word is not a URL and there is no `--stdio`).
 *
 * @param command The command's name (`ls`, `types`, `call`; others never have one).
 * @param words The words after the command word.
 * @param values The parsed flags: `stdio` (a command line), `header` (`Name: value` lines).
 * @param stateDir `paths.state`: the documents go in its `direct/` folder (0700; files 0600).
 * @param cwd Where a `--stdio` server starts.
 * @throws {UsageError} For `--stdio` with a URL, `--header` without a URL, a
 *   missing tool, `--config` beside a target, or a target the command does not take.
 */
export async function directCommand(
  command: string,
  words: string[],
  values: Record<string, unknown>,
  stateDir: string,
  cwd: string,
): Promise<DirectCommand | undefined> {
  const stdio = typeof values.stdio === "string" ? values.stdio : undefined;
  const headers = (values.header as string[] | undefined) ?? [];
  // `mcpx api` has a --header of its own (sent to the API, not to an MCP server).
  if (command === "api") return undefined;
  const url = words.length > 0 && isDirectUrl(words[0]) ? words[0] : undefined;
  if (!DIRECT_COMMANDS.includes(command) || (url === undefined && stdio === undefined)) {
    if (headers.length) throw new UsageError(`--header goes with a URL: mcpx ${command} <url> …`);
    return undefined;
  }
  if (url !== undefined && stdio !== undefined) {
    throw new UsageError(`give either a URL or --stdio "cmd args…", not both`);
  }
  if (stdio !== undefined && headers.length) {
    throw new UsageError(`--header goes with a URL, not with --stdio`);
  }
  if (typeof values.config === "string") {
    throw new UsageError(
      `--config and a direct target both name the server; drop --config to reach the target`,
    );
  }
  let target: DirectTarget;
  try {
    target = url !== undefined ? urlTarget(url, headers) : stdioTarget(stdio!, cwd);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const rest = url !== undefined ? words.slice(1) : words;
  const ns = target.namespace;
  let rewritten: string[];
  if (command === "ls") {
    if (rest.length) {
      throw new UsageError(
        `\`mcpx ls <target>\` takes nothing after the target; unexpected ${
          rest.map((w) => JSON.stringify(w)).join(" ")
        }`,
      );
    }
    rewritten = [];
  } else if (command === "types") {
    rewritten = rest.length ? rest.map((tool) => `${ns}.${tool}`) : [ns];
  } else if (command === "prompts") {
    // `<url>` lists; `<url> name key=value…` renders.
    rewritten = rest.length ? [`${ns}.${rest[0]}`, ...rest.slice(1)] : [ns];
  } else if (command === "auth") {
    // `<url> [--code …]`: the flags carry the rest.
    rewritten = [ns, ...rest];
  } else if (command === "resources" || command === "skills") {
    // `<url>` lists; `<url> <uri> key=value…` reads (`skills`: `<url> <uri> [--verify]` gets one).
    rewritten = [ns, ...rest];
  } else {
    if (rest.length === 0) {
      throw new UsageError(
        `\`mcpx call ${target.shown}\` needs the tool to call: mcpx call <target> <tool> '{…}' ` +
          `(\`mcpx types <target>\` shows its tools)`,
      );
    }
    rewritten = [`${ns}.${rest[0]}`, ...rest.slice(1)];
  }
  const dir = join(stateDir, "direct");
  ensurePrivateDir(dir, "direct targets' configurations", { from: stateDir });
  const configPath = join(dir, await directFileName(target));
  const text = JSON.stringify(directDocument(target), null, 2) + "\n";
  // Written once: the same target is the same file, so its daemon and schema cache are reused.
  if (await readOrNull(configPath) !== text) await writePrivateFile(configPath, text);
  return { configPath, words: rewritten, target };
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

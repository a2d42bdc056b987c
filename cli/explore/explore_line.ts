/**
 * What one line typed at `mcpx explore`'s prompt asks for (spec 000, "The
 * explorer"; decision 0082): the words of an mcpx command line to run, the
 * explorer's own help, leaving, or a refusal with the nearest command or
 * namespace. Pure: the loop (cli/explore/explore.ts) runs what it answers.
 *
 * The prompt's commands are mcpx's discovery commands without the `mcpx`
 * in front, and three of the explorer's own: a bare namespace (`fs`, or
 * `fs.read_file`) is `types` of it, because that is what a person typing a
 * namespace means nine times in ten; `chain` is `log --chain`, which without
 * an id lists the recent calls whose ids it takes; `help` lists the commands.
 * Each command's summary is its op's (ops/_table.gen.ts), so the explorer's
 * help cannot drift from `mcpx --help`.
 *
 * @module
 */

import { OP_ROWS } from "../../ops/_table.gen.ts";
import { shellWord, splitShellWords } from "../../config/shell_word.ts";
import { didYouMean, nearest } from "../../core/nearest.ts";

/** One command of the explorer's prompt. */
export interface ExploreCommand {
  /** What is typed at the prompt (`chain`). */
  word: string;
  /** What follows the word, for the help (`[<id>]`). */
  args: string;
  /** The op whose command it runs: its summary and its `help <word>` are that op's. */
  op: string;
  /** The words after `mcpx` for the words typed after {@link word}. */
  argv(rest: string[]): string[];
  /** The help's line, when not the op's own summary. */
  summary?: string;
}

/** The words after `mcpx` for a command typed as it is spelt at a shell. */
const same = (word: string) => (rest: string[]) => [word, ...rest];

/** The prompt's commands, in the order its help lists them. */
export const EXPLORE_COMMANDS: readonly ExploreCommand[] = [
  { word: "ls", args: "", op: "ls", argv: same("ls") },
  { word: "search", args: "<words…>", op: "search", argv: same("search") },
  { word: "types", args: "<namespace>[.<tool>] …", op: "types", argv: same("types") },
  { word: "call", args: "<namespace>.<tool> '<json>'", op: "call", argv: same("call") },
  { word: "log", args: "[--since 1h] [-n N]", op: "log", argv: same("log") },
  {
    word: "chain",
    args: "[<id>]",
    op: "log",
    argv: (rest) => ["log", "--chain", ...rest],
    summary: "recent calls with their ids; given one, that call and what led to it",
  },
  { word: "status", args: "", op: "status", argv: same("status") },
];

/** `[$ ][mcpx ]call <target> <JSON object or array, unquoted>`: the target and the JSON. */
const BARE_JSON_CALL = /^(?:\$\s+)?(?:mcpx\s+)?call\s+([^\s'"]+)\s+([[{][\s\S]*)$/;

/** The words that leave the prompt (end of input does too). */
export const QUIT_WORDS: readonly string[] = ["quit", "exit"];

/** What a line asks for. */
export type ExploreAction =
  /** Nothing: an empty or blank line. */
  | { kind: "blank" }
  /** Leave the prompt. */
  | { kind: "quit" }
  /** The explorer's own list of commands ({@link exploreHelp}). */
  | { kind: "help" }
  /** Run `mcpx <argv…>`, the explorer's global options before it. */
  | { kind: "run"; argv: string[] }
  /** Nothing to run: `message` says why, naming the nearest command or namespace. */
  | { kind: "refused"; message: string };

/**
 * Reads one line typed at the prompt.
 *
 * A first word `mcpx` (or `$ mcpx`, a footer pasted back) is skipped, so a
 * command copied from anywhere runs as it would at a shell. Words are split
 * as a POSIX shell splits them (config/shell_word.ts), so a JSON argument is
 * quoted as it would be there.
 *
 * @param line The line, without its line ending.
 * @param namespaces The namespaces a bare word may name (their identifiers
 *   and their servers' configured names); asked only when the first word is
 *   no command.
 * @returns The action; never throws: a line that cannot be read is `refused`.
 * @example
 * ```ts
 * import { exploreAction } from "./explore_line.ts";
 * const action = await exploreAction("fs", () => Promise.resolve(["fs"]));
 * if (action.kind !== "run" || action.argv.join(" ") !== "types fs") throw new Error();
 * ```
 */
export async function exploreAction(
  line: string,
  namespaces: () => Promise<readonly string[]>,
): Promise<ExploreAction> {
  // `call ns.tool {"text": "hi there"}`, JSON typed as it is rather than quoted for a shell: the
  // rest of the line is the one argument (a shell would have split it at its spaces).
  const bare = BARE_JSON_CALL.exec(line.trim());
  if (bare) return { kind: "run", argv: ["call", bare[1], bare[2]] };
  let words: string[];
  try {
    words = splitShellWords(line);
  } catch (error) {
    return { kind: "refused", message: (error as Error).message };
  }
  if (words[0] === "$") words = words.slice(1);
  if (words[0] === "mcpx") words = words.slice(1);
  const [first, ...rest] = words;
  if (first === undefined) return { kind: "blank" };
  if (QUIT_WORDS.includes(first)) return { kind: "quit" };
  if (first === "help" || first === "?") return helpAction(rest);
  const command = EXPLORE_COMMANDS.find((c) => c.word === first);
  if (command) return { kind: "run", argv: command.argv(rest) };
  const known = await namespaces();
  // `fs` or `fs.read_file`: a namespace never holds a `.`, a tool name may.
  const named = first.includes(".") ? first.slice(0, first.indexOf(".")) : first;
  if (known.includes(named)) return { kind: "run", argv: ["types", ...words] };
  return { kind: "refused", message: unknownWord(words, known) };
}

/** `help`: the explorer's list; `help <command>`: that command's options, as `mcpx help` prints them. */
function helpAction(rest: string[]): ExploreAction {
  if (rest.length === 0) return { kind: "help" };
  const command = EXPLORE_COMMANDS.find((c) => c.word === rest[0]);
  if (command) return { kind: "run", argv: ["help", command.op] };
  const words = EXPLORE_COMMANDS.map((c) => c.word);
  return {
    kind: "refused",
    message: `no command "${rest[0]}" here${didYouMean(nearest(rest[0], words))} ` +
      "(`help` lists them)",
  };
}

/** The refusal of a line whose first word is neither a command here nor a namespace. */
function unknownWord(words: string[], namespaces: readonly string[]): string {
  const word = words[0];
  // Another mcpx command (`run`, `exec`, `serve`): it takes the terminal or stdin explore reads.
  if (OP_ROWS.some((op) => op.cli?.command === word && !op.cli.hidden)) {
    return `explore does not run \`${word}\`; run it at a shell: ${commandLine(words)} ` +
      "(`help` lists what runs here)";
  }
  const here = [...EXPLORE_COMMANDS.map((c) => c.word), "help", ...QUIT_WORDS];
  const suggestions = nearest(word, [...here, ...namespaces]);
  return `unknown command or namespace "${word}"${didYouMean(suggestions)} ` +
    "(`help` lists the commands, `ls` the namespaces)";
}

/**
 * The command line a screen is the answer of, as a person would type it at a
 * shell: what the footer under every answer shows.
 *
 * @param argv The words after `mcpx`, the explorer's global options first.
 * @returns `mcpx types fs`, each word quoted for a POSIX shell when it needs it.
 * @example
 * ```ts
 * import { commandLine } from "./explore_line.ts";
 * if (commandLine(["call", "fs.read", '{"path":"a"}']) !== `mcpx call fs.read '{"path":"a"}'`) {
 *   throw new Error();
 * }
 * ```
 */
export function commandLine(argv: readonly string[]): string {
  return ["mcpx", ...argv.map(shellWord)].join(" ");
}

/**
 * The explorer's help: each command with its op's summary, then the
 * explorer's own words.
 *
 * @returns Lines ending in a newline.
 */
export function exploreHelp(): string {
  const summaryOf = (c: ExploreCommand) =>
    c.summary ?? OP_ROWS.find((op) => op.name === c.op)?.cli?.summary ?? "";
  const rows: [string, string][] = [
    ...EXPLORE_COMMANDS.map((c): [string, string] => [
      `${c.word}${c.args ? ` ${c.args}` : ""}`,
      summaryOf(c),
    ]),
    ["<namespace>[.<tool>]", "its signatures: types <namespace>"],
    ["help [<command>]", "this list, or one command's options"],
    [QUIT_WORDS.join(", "), "leave (so does end of input, Ctrl-D)"],
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    "Each command is mcpx's own, without the `mcpx`; under each answer is the command",
    "that prints it at a shell.",
    "",
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    "",
  ].join("\n");
}

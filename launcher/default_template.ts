/**
 * The default launcher (spec 000, "The launcher is replaceable"; decision
 * 0004): the template, the built-in placeholders' fills, and
 * {@link buildLauncher}, which expands them into the program the runtime runs.
 *
 * The generated program is an ES module with top-level await and no type
 * syntax, so deno, bun and node (22.6+, type stripping) all run it. It talks
 * to the script client only through the client's `launcher` export:
 * `installGlobals(tools)`, `captureConsole()`, `awaiting(promise)` (what it
 * waits on, so a wait that can never end is reported: client/unsettled_await.ts),
 * `runEntry(mod, script)`, `printResult(value)` and `reportError(error)`
 * (which sets the exit code).
 *
 * @module
 */

import { type Fill, problemsMessage, tryExpandTemplate } from "./template.ts";
import { UsageError } from "../core/errors.ts";

/** The built-in placeholders, in the order the default template uses them. */
export const BUILTIN_PLACEHOLDERS = [
  "header",
  "globals",
  "console",
  "before",
  "prefix",
  "import",
  "entry",
  "onSuccess",
  "onError",
  "suffix",
] as const;

/** A built-in placeholder's name. */
export type BuiltinPlaceholder = typeof BUILTIN_PLACEHOLDERS[number];

/**
 * The default template. Code in it and in the fills may rely on: `__mcpx`
 * (the client module), `tools`, `script` (declared by the header), `result`
 * (`{ ok, value, error, ms }`), `__mod` (the script module once imported) and,
 * in the catch block, `error`. A replacement template that uses the entry or
 * the hooks must declare `result`, `__mod` and `__mcpxStart` as this one does.
 */
export const DEFAULT_TEMPLATE = `@header
@globals
@console
@before
const result = { ok: false, value: undefined, error: undefined, ms: 0 };
let __mod;
const __mcpxStart = performance.now();
try {
  @prefix
  @import
  @entry
  result.ok = true;
  @onSuccess
} catch (error) {
  result.ok = false;
  result.error = error;
  @onError
} finally {
  result.ms = performance.now() - __mcpxStart;
  @suffix
}
`;

/** What {@link buildLauncher} needs to know about one run. */
export interface LauncherOptions {
  /** `file:` URL of the generated client (`mcpx-client.ts`). */
  clientUrl: string;
  /** `file:` URL of the script module. */
  scriptUrl: string;
  /** The run as scripts see it (`script` in hooks). */
  script: { path: string; name: string; args: string[]; export?: string };
  /** Whether console output becomes log records (`--no-capture-console` makes it false). */
  captureConsole: boolean;
  /** Replacement template text (`--launcher`, already resolved); default {@link DEFAULT_TEMPLATE}. */
  template?: string;
  /** User code run at module level after globals and console capture (`--before`), in order. */
  before?: string[];
  /** User code run inside the try block before the script is imported (`--prefix`). */
  prefix?: string[];
  /** User code run in the finally block, after a throw too (`--suffix`); sees `result`. */
  suffix?: string[];
  /** User code run after the entry returns, before the result is printed (`--on-success`). */
  onSuccess?: string[];
  /** User code run when anything in the try block throws, before it is reported (`--on-error`). */
  onError?: string[];
  /** User-declared placeholders (from placeholder files); may not shadow a built-in. */
  placeholders?: Record<string, Fill>;
  /** Placeholders that may be expanded more than once (`plumbing.launcherPlaceholderRepeat`). */
  repeatable?: string[];
}

/**
 * A string as a JavaScript literal: JSON, with `@` written `\u0040` so no
 * value embedded by mcpx (a path, an argument) can be read as a placeholder,
 * and the two JSON-legal line separators escaped.
 *
 * @param value Any string.
 * @returns A double-quoted literal that evaluates to `value`.
 */
export function jsString(value: string): string {
  return JSON.stringify(value).replace(
    /[@\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The fills of the built-in placeholders for one run.
 *
 * | placeholder | fill |
 * | --- | --- |
 * | `header` | imports the client as `__mcpx`; declares `tools` and the frozen `script` |
 * | `globals` | `__mcpx.launcher.installGlobals(tools)` |
 * | `console` | `__mcpx.launcher.captureConsole()`, or nothing when capture is off |
 * | `before`, `prefix`, `suffix` | the user's code, joined by newlines |
 * | `import` | `__mod = await __mcpx.launcher.awaiting(import(<script URL>))` |
 * | `entry` | `{ result.value = await __mcpx.launcher.awaiting(__mcpx.launcher.runEntry(__mod, script)); }` |
 * | `onSuccess` | the user's code, then `__mcpx.launcher.printResult(result.value)` |
 * | `onError` | the user's code, then `__mcpx.launcher.reportError(error)` |
 *
 * @param options The run.
 * @returns The fills by name.
 */
export function builtinFills(options: LauncherOptions): Record<BuiltinPlaceholder, Fill> {
  const { script } = options;
  const code = (lines: string[] | undefined) => ({ body: (lines ?? []).join("\n") });
  const scriptLiteral = [
    `path: ${jsString(script.path)}`,
    `name: ${jsString(script.name)}`,
    `args: Object.freeze([${script.args.map(jsString).join(", ")}])`,
    `export: ${script.export === undefined ? "undefined" : jsString(script.export)}`,
  ].join(", ");
  return {
    header: {
      body: [
        "// Generated by mcpx: the launcher of one script run.",
        `import * as __mcpx from ${jsString(options.clientUrl)};`,
        "const tools = __mcpx.default;",
        `const script = Object.freeze({ ${scriptLiteral} });`,
      ].join("\n"),
    },
    globals: { body: "__mcpx.launcher.installGlobals(tools);" },
    console: { body: options.captureConsole ? "__mcpx.launcher.captureConsole();" : "" },
    before: code(options.before),
    prefix: code(options.prefix),
    import: {
      body: `__mod = await __mcpx.launcher.awaiting(import(${jsString(options.scriptUrl)}));`,
    },
    entry: {
      body: "{ result.value = await __mcpx.launcher.awaiting(" +
        "__mcpx.launcher.runEntry(__mod, script)); }",
    },
    onSuccess: code([...(options.onSuccess ?? []), "__mcpx.launcher.printResult(result.value);"]),
    onError: code([...(options.onError ?? []), "__mcpx.launcher.reportError(error);"]),
    suffix: code(options.suffix),
  };
}

/**
 * Builds the launcher program, returning every problem instead of throwing so
 * the run command can merge them with its other checks.
 *
 * @param options The run.
 * @returns `{ text, problems }`; `text` is usable only when `problems` is empty.
 */
export function tryBuildLauncher(
  options: LauncherOptions,
): { text: string | undefined; problems: string[] } {
  const problems: string[] = [];
  const fills: Record<string, Fill> = { ...builtinFills(options) };
  for (const [name, fill] of Object.entries(options.placeholders ?? {})) {
    if ((BUILTIN_PLACEHOLDERS as readonly string[]).includes(name)) {
      problems.push(
        `placeholder @${name} is built in and cannot be redeclared; choose another name`,
      );
    } else fills[name] = fill;
  }
  const expansion = tryExpandTemplate(options.template ?? DEFAULT_TEMPLATE, fills, {
    repeatable: options.repeatable,
  });
  problems.push(...expansion.problems);
  return { text: problems.length === 0 ? expansion.text : undefined, problems };
}

/**
 * Builds the launcher program for one run: the template (the default, or the
 * `--launcher` replacement) expanded with the built-in fills
 * ({@link builtinFills}) and the user's placeholders.
 *
 * @param options The run.
 * @returns The program's text (JavaScript, runnable as `.ts` or `.mjs`).
 * @throws {UsageError} Every problem at once: a user placeholder shadowing a
 *   built-in, cycles, misspelt placeholders, repeats, argument errors.
 * @example
 * ```ts
 * import { buildLauncher } from "./default_template.ts";
 * const program = buildLauncher({
 *   clientUrl: "file:///w/mcpx-client.ts",
 *   scriptUrl: "file:///w/job.ts",
 *   script: { path: "/w/job.ts", name: "job", args: ["a"] },
 *   captureConsole: true,
 * });
 * if (!program.includes('awaiting(import("file:///w/job.ts"))')) throw new Error(program);
 * ```
 */
export function buildLauncher(options: LauncherOptions): string {
  const { text, problems } = tryBuildLauncher(options);
  if (text === undefined || problems.length > 0) {
    throw new UsageError(`the launcher cannot be built: ${problemsMessage(problems)}`);
  }
  return text;
}

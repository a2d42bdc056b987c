/**
 * Opening a URL in the user's browser, the conventional way: the commands
 * `$BROWSER` names, else the system's opener (`open` on macOS, `xdg-open`
 * elsewhere). Used only by `mcpx auth` (decision 0042: nothing else opens a
 * browser).
 *
 * `$BROWSER` is a `:`-separated list of commands tried in order (the
 * convention Python's `webbrowser` and `xdg-open` follow); each is split on
 * whitespace into a program and its arguments (no shell runs it), `%s` in an
 * argument is replaced by the URL, and without one the URL is the last
 * argument. When `$BROWSER` is set, only its commands are tried: the user
 * chose them.
 *
 * @module
 */

/** One command that opens a URL: the program and its arguments, the URL in place. */
export interface BrowserCommand {
  program: string;
  args: string[];
}

/**
 * The commands that would open `url`, in the order they are tried.
 *
 * @param env The environment: `BROWSER` is read from it.
 * @param os `Deno.build.os`: `darwin` falls back to `open`, anything else to `xdg-open`.
 * @example
 * ```ts
 * import { browserCommands } from "./browser.ts";
 * const [a, b] = browserCommands("https://x.test/a", { BROWSER: "w3m:firefox --new-tab %s" }, "linux");
 * if (a.program !== "w3m" || a.args[0] !== "https://x.test/a") throw new Error();
 * if (b.args.join(" ") !== "--new-tab https://x.test/a") throw new Error();
 * ```
 */
export function browserCommands(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  os: string = Deno.build.os,
): BrowserCommand[] {
  const listed = (env.BROWSER ?? "").split(":").map((entry) => entry.trim().split(/\s+/))
    .filter((words) => words[0] !== "");
  const words = listed.length ? listed : [[os === "darwin" ? "open" : "xdg-open"]];
  return words.map(([program, ...rest]) => {
    const args = rest.map((arg) => arg.replaceAll("%s", url));
    return { program, args: rest.some((arg) => arg.includes("%s")) ? args : [...args, url] };
  });
}

/** What {@link openBrowser} found: a command that started, or why none did. */
export type BrowserOutcome =
  | { opened: true; command: string }
  | { opened: false; tried: string[] };

/**
 * Starts the first of {@link browserCommands} that works. A command that is
 * not found, or exits non-zero, is passed over for the next; one that exits 0
 * opened the URL. A browser that runs on (it is the window itself) is waited
 * for, so a caller must not await this before it waits for what the browser
 * brings back: race the two.
 *
 * @param env The environment (`BROWSER`); the command gets no stdin and its
 *   output is discarded (it must not write into mcpx's own output).
 * @returns Which command opened the URL, or every one tried and why it failed.
 */
export async function openBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<BrowserOutcome> {
  const tried: string[] = [];
  for (const { program, args } of browserCommands(url, env)) {
    try {
      const child = new Deno.Command(program, {
        args,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      const status = await child.status;
      if (status.success) return { opened: true, command: program };
      tried.push(`${program} exited with ${status.code}`);
    } catch (error) {
      tried.push(
        error instanceof Deno.errors.NotFound
          ? `${program} was not found`
          : `${program} could not start (${(error as Error).message})`,
      );
    }
  }
  return { opened: false, tried };
}

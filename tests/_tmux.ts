/**
 * A real terminal for process tests: a program run in a tmux pane of a fixed
 * size, typed at with `send-keys` and read with `capture-pane`, as a person
 * at a terminal would drive it (issue 28: "tested as a person would"). Each
 * pane has a tmux server of its own (`-L`, its socket in the test's folder,
 * no configuration file read), killed when the pane is disposed, so nothing
 * is left running and no one else's tmux is touched.
 *
 * `.ci/run` installs tmux; {@link TMUX_ABSENT} says why a test is skipped
 * where it is not installed.
 *
 * @module
 */

/** Why terminal tests cannot run here (tmux is not installed), or undefined when they can. */
export const TMUX_ABSENT: string | undefined = await new Deno.Command("tmux", {
  args: ["-V"],
  stdout: "null",
  stderr: "null",
}).output().then(
  (out) => out.success ? undefined : "`tmux -V` failed",
  () => "tmux is not installed (apt-get install -y tmux; .ci/run installs it)",
);

/** The line the pane's shell prints once the program has exited, with its status. */
const EXITED = /^\[exited (\d+)\]$/m;

/** A program running in a tmux pane. Dispose it to kill its tmux server (and so the program). */
export interface Pane extends AsyncDisposable {
  /** Sends keys as `tmux send-keys` takes them: text, `Enter`, `C-c`, `C-d`. */
  send(...keys: string[]): Promise<void>;
  /** Sends `text` literally (no key names), then Enter. */
  type(text: string): Promise<void>;
  /**
   * The pane's text, its scrollback included, lines joined where the pane
   * wrapped them, without the blank rows below the cursor (tmux drops each
   * line's trailing blanks too: a prompt `mcpx> ` reads `mcpx>`).
   */
  screen(): Promise<string>;
  /**
   * Waits until the screen matches `pattern`.
   *
   * @returns The screen that matched.
   * @throws {Error} Past `ms` (default 30 s), with the screen as it was.
   */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /**
   * Waits until the program has exited.
   *
   * @returns Its exit status (128 + the signal's number when a signal ended it, as sh says).
   * @throws {Error} Past `ms` (default 30 s), with the screen.
   */
  exited(ms?: number): Promise<number>;
}

/**
 * Starts `argv` in a new pane of `columns`×`rows`, with `env` as its whole
 * environment and `cwd` as its directory.
 *
 * @param dir A folder of the test's own: the tmux server's socket and configuration go there.
 */
export async function tmuxPane(
  argv: string[],
  options: {
    env: Record<string, string>;
    cwd: string;
    dir: string;
    columns?: number;
    rows?: number;
  },
): Promise<Pane> {
  const socket = `${options.dir}/tmux.sock`;
  // The pane stays after its program exits, so its exit status can be read.
  const conf = `${options.dir}/tmux.conf`;
  await Deno.writeTextFile(conf, "set -g remain-on-exit on\nset -g history-limit 10000\n");
  const env: Record<string, string> = { ...options.env, TERM: "xterm-256color" };
  delete env.TMUX;
  const tmux = async (...args: string[]) => {
    const out = await new Deno.Command("tmux", {
      args: ["-S", socket, "-f", conf, ...args],
      env,
      clearEnv: true,
      cwd: options.cwd,
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) {
      // tmux's server detaches with daemon(3), which refuses a /dev/null that is not a device.
      const devNull = Deno.statSync("/dev/null").isCharDevice
        ? ""
        : " (/dev/null is not a character device here, which tmux needs: mknod -m 666 /dev/null c 1 3)";
      throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}${devNull}`);
    }
    return text;
  };
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  // The program's status, printed by the shell that ran it: tmux 3.3 does not always reap a
  // pane's process (its #{pane_dead_status} stayed empty for a Deno that had a SIGINT
  // listener). The shell catches SIGINT with a handler of its own, which the program does not
  // inherit, so Ctrl-C reaches the program as a person's shell would pass it on.
  const command = `trap : INT; ${argv.map(quote).join(" ")}; echo "[exited $?]"`;
  await tmux(
    "new-session",
    "-d",
    "-x",
    String(options.columns ?? 120),
    "-y",
    String(options.rows ?? 40),
    `sh -c ${quote(command)}`,
  );
  const screen = async () => (await tmux("capture-pane", "-p", "-J", "-S", "-")).trimEnd();
  const poll = async <T>(
    what: string,
    ms: number,
    check: () => Promise<T | undefined>,
  ): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > end) {
        throw new Error(`${what} within ${ms} ms; the screen:\n${await screen()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const waitFor = (pattern: RegExp, ms = 30_000) =>
    poll(`no ${pattern}`, ms, async () => {
      const text = await screen();
      return pattern.test(text) ? text : undefined;
    });
  return {
    async send(...keys) {
      await tmux("send-keys", ...keys);
    },
    async type(text) {
      await tmux("send-keys", "-l", text);
      await tmux("send-keys", "Enter");
    },
    screen,
    waitFor,
    async exited(ms = 30_000) {
      return Number((await waitFor(EXITED, ms)).match(EXITED)![1]);
    },
    async [Symbol.asyncDispose]() {
      await tmux("kill-server").catch(() => {});
      await Deno.remove(socket).catch(() => {});
    },
  };
}

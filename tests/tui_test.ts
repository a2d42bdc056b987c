/**
 * The browser walked as a person would (issue 28; spec 000, "The browser"):
 * plain `mcpx` typed into a real terminal — tmux, 140×40 — over two real
 * servers from npm, every one of the six views visited with the keys the
 * footer names, a row opened, a view chosen with a click, and quit; then the
 * terminal is checked to be the user's again (the screen, the mouse, the
 * cursor and the line settings as they were). What is on the screen is read
 * with `tmux capture-pane`, polled until it shows what is waited for or a
 * deadline passes.
 *
 * The tmux server is this test's own child (`tmux -D`, in the foreground, on
 * a socket in the world's folder), so it is stopped whatever happens and no
 * other tmux is touched.
 */

import assert from "node:assert/strict";
import { stdioServer, type World, world } from "./_helpers.ts";

/** How long a screen may take to show what is waited for, in ms (servers are started before). */
const DEADLINE_MS = 30_000;

/** A tmux server of this test's own, and the pane `mcpx` runs in. */
class Tmux implements AsyncDisposable {
  readonly socket: string;
  readonly #server: Deno.ChildProcess;
  /** The last screen captured, for a failure's message. */
  last = "";

  constructor(w: World) {
    this.socket = `${w.dir}/tmux.sock`;
    this.#server = new Deno.Command("tmux", {
      args: ["-D", "-S", this.socket, "-f", "/dev/null"],
      env: { ...w.env, TERM: "xterm-256color" },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
  }

  /** Runs a tmux command against this server; its stdout. */
  async run(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", { args: ["-S", this.socket, ...args] }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (out.code !== 0) {
      throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    }
    return text;
  }

  /** What the pane shows now. */
  async screen(): Promise<string> {
    return this.last = await this.run("capture-pane", "-p", "-t", "walk");
  }

  /** Waits until the screen matches `pattern`; fails with the last screen when it does not. */
  async waitFor(pattern: RegExp, what: string): Promise<string> {
    const end = Date.now() + DEADLINE_MS;
    while (Date.now() < end) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      // mcpx ended: what is waited for will not come.
      if (/mcpx exited \d+/.test(screen)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // With its styles, which show where the cursor is (inverse).
    const styled = await this.run("capture-pane", "-p", "-e", "-t", "walk").catch(() => "");
    assert.fail(
      `${what}: the screen never matched ${pattern}:\n${this.last}\nwith styles:\n` +
        JSON.stringify(styled.split("\n").slice(0, 8)),
    );
  }

  /** Sends keys by tmux's names (`Down`, `Enter`, `Escape`) or, with `literal`, as typed. */
  async keys(keys: string[], literal = false): Promise<void> {
    await this.run("send-keys", "-t", "walk", ...(literal ? ["-l"] : []), ...keys);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.run("kill-server").catch(() => {});
    try {
      this.#server.kill("SIGKILL");
    } catch { /* already gone */ }
    await this.#server.status;
  }
}

/** Whether `tmux` can be run. */
function hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

Deno.test("mcpx on a terminal: the browser's six views, a row opened, a click, and the terminal restored", async () => {
  assert.ok(hasTmux(), "tmux is needed for this test: `apt-get install -y tmux` (.ci/run does)");
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      memory: stdioServer("memory"),
    },
  });
  // Listed, and a call in a named session, so every view has rows to show.
  const types = await w.mcpx(["types", "everything", "memory"]);
  assert.equal(types.code, 0, types.stderr);
  const call = await w.mcpx([
    "--session",
    "walk",
    "call",
    "everything.echo",
    JSON.stringify({ message: "first line\nsecond line" }),
  ]);
  assert.equal(call.code, 0, call.stderr);

  await using tmux = new Tmux(w);
  // The server is ready once its socket is there. Nothing is asked of it before: a tmux client
  // finding no server starts one of its own, with the test's environment rather than the world's.
  const ready = Date.now() + DEADLINE_MS;
  while (!(await Deno.stat(tmux.socket).then((s) => s.isSocket, () => false))) {
    assert.ok(Date.now() < ready, "the tmux server never made its socket");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // `mcpx` with no command, as a person types it; the line settings are compared after it.
  const script = `cd '${w.dir}'; PATH='${w.dir}/.bin':"$PATH"; before=$(stty -g); mcpx; code=$?; ` +
    `[ "$before" = "$(stty -g)" ] && echo "tty settings restored"; echo "mcpx exited $code"; ` +
    `exec sleep 600`;
  await tmux.run(
    "new-session",
    "-d",
    "-s",
    "walk",
    "-x",
    "140",
    "-y",
    "40",
    "sh",
    "-c",
    script,
  );

  // tools: namespaces, the first one's tools and the first tool's signature, with nothing pressed.
  let screen = await tmux.waitFor(/\[tools\][\s\S]*function echo\(/, "the tools view");
  // The header names all six views, the current one marked.
  assert.ok(screen.includes("mcpx │[tools] log  stats  servers  sessions  storage"), screen);
  assert.match(screen, /│everything\s+\d+│/);
  assert.match(screen, /│memory\s+\d+│/);
  // The cursor moved down loads memory's tools.
  await tmux.keys(["Down"]);
  await tmux.waitFor(/│memory\s+│[\s\S]*read_graph/, "memory's tools");
  // The filter takes every key: `q` and `]` typed there are text, not commands.
  await tmux.keys(["/"]);
  await tmux.keys(["q]"], true);
  await tmux.waitFor(/\/q\]█/, "the filter holding q]");
  await tmux.keys(["Escape"]);
  await tmux.waitFor(/│namespaces\s+│/, "the filter cleared");

  await tmux.keys(["]"]);
  screen = await tmux.waitFor(/\[log\][\s\S]*call\.end/, "the log view");
  assert.match(screen, /TIME\s+LEVEL\s+EVENT/);

  await tmux.keys(["]"]);
  await tmux.waitFor(/\[stats\][\s\S]*P50[\s\S]*echo/, "the stats view (calls)");
  await tmux.keys(["d"]);
  await tmux.waitFor(/\[stats\][\s\S]*CALL\s+TIME[\s\S]*d slowest/, "stats, slowest");

  await tmux.keys(["]"]);
  await tmux.waitFor(/\[servers\][\s\S]*everything\s+\d+\s+running/, "the servers view");

  await tmux.keys(["]"]);
  await tmux.waitFor(/\[sessions\][\s\S]*walk\s+session/, "the sessions view");
  // Enter opens the row in full.
  await tmux.keys(["Home", "Enter"]);
  await tmux.waitFor(/session: walk[\s\S]*calls: 1/, "a session opened");
  await tmux.keys(["Escape"]);

  await tmux.keys(["]"]);
  await tmux.waitFor(/\[storage\](?=[\s\S]*schema cache)(?=[\s\S]*log index)/, "the storage view");
  // A terminal made too small says so; made larger again, the view is back.
  await tmux.run("resize-window", "-t", "walk", "-x", "50", "-y", "10");
  await tmux.waitFor(/needs a terminal of at least 60×12; this\s+one is 50×10/, "too small");
  await tmux.run("resize-window", "-t", "walk", "-x", "140", "-y", "40");
  await tmux.waitFor(/\[storage\]/, "the storage view, resized back");

  // A click on `log` in the header (SGR mouse report, cell-motion mode on) shows the log.
  const header = (await tmux.screen()).split("\n")[0];
  const x = header.indexOf(" log ") + 2;
  await tmux.keys([`\x1b[<0;${x};1M\x1b[<0;${x};1m`], true);
  await tmux.waitFor(/\[log\]/, "the log, clicked");
  // Back to the tools view with `[`, and `L` jumps to the log from anywhere.
  await tmux.keys(["["]);
  await tmux.waitFor(/\[tools\]/, "back to tools");
  await tmux.keys(["L"]);
  await tmux.waitFor(/\[log\]/, "the log, by L");

  await tmux.keys(["q"]);
  screen = await tmux.waitFor(/mcpx exited \d+/, "mcpx quitting");
  assert.match(screen, /tty settings restored\nmcpx exited 0/);
  assert.doesNotMatch(screen, /namespaces|\[tools\]/, "the browser's screen is gone");
  const modes = await tmux.run(
    "display-message",
    "-p",
    "-t",
    "walk",
    "#{alternate_on} #{mouse_button_flag} #{mouse_sgr_flag} #{cursor_flag}",
  );
  assert.equal(modes.trim(), "0 0 0 1", "alternate screen off, mouse off, cursor shown");
});

Deno.test("mcpx tui off a terminal says why and names the text commands", async () => {
  await using w = await world();
  const run = await w.mcpx(["tui"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /mcpx tui draws on a terminal/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
  // Bare `mcpx` with no terminal prints the usage, as ever.
  const bare = await w.mcpx([]);
  assert.equal(bare.code, 0);
  assert.match(bare.stdout, /usage: mcpx <command>/);
});

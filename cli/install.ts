/**
 * `deno task install`: installs `mcpx` (cli/mcpx.bundle.js, decision 0027)
 * with `deno install -g` and makes sure the shell can run it. Deno puts the command in `$DENO_INSTALL_ROOT/bin`
 * (default `~/.deno/bin`), which is often not on PATH, and its launcher
 * runs `deno` by name, which is not on PATH either when Deno came from
 * `npx -y deno@…`. So, after installing:
 *
 * - the launcher names this Deno by its full path when `deno` is not on PATH;
 * - when the bin folder is on PATH, nothing else is needed;
 * - else, when `~/.local/bin` exists and is on PATH, `mcpx` is linked there;
 * - else the one line to add to the shell's startup file is printed.
 *
 * Run from a checkout: `deno task install` (or `deno run -A cli/install.ts`).
 *
 * @module
 */

import { fileURLToPath as fromFileUrl } from "node:url";
import { delimiter } from "node:path";
import { COMMAND_FILES } from "./commands.ts";

/** What the install did, for the message (and the test). */
export type PathOutcome =
  | { kind: "on-path" }
  | { kind: "linked"; link: string }
  | { kind: "add-line"; line: string; file: string };

/**
 * The folder `deno install -g` writes to: `$DENO_INSTALL_ROOT/bin`, else
 * `$HOME/.deno/bin` (Deno's documented default install root).
 */
export function installBinDir(env: Record<string, string | undefined>): string {
  const root = env.DENO_INSTALL_ROOT || `${env.HOME ?? ""}/.deno`;
  return `${root.replace(/\/+$/, "")}/bin`;
}

/** The shell startup file and the line that puts `dir` on PATH, for `$SHELL`. */
export function pathLine(dir: string, shell: string | undefined): { line: string; file: string } {
  const name = (shell ?? "").split("/").pop();
  if (name === "fish") return { line: `fish_add_path ${dir}`, file: "~/.config/fish/config.fish" };
  const file = name === "zsh" ? "~/.zshrc" : name === "bash" ? "~/.bashrc" : "~/.profile";
  return { line: `export PATH="${dir}:$PATH"`, file };
}

function onPath(dir: string, path: string | undefined): boolean {
  const real = (p: string) => {
    try {
      return Deno.realPathSync(p);
    } catch {
      return p.replace(/\/+$/, "");
    }
  };
  const want = real(dir);
  return (path ?? "").split(delimiter).filter(Boolean).some((p) => real(p) === want);
}

function which(command: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter).filter(Boolean)) {
    try {
      const info = Deno.statSync(`${dir}/${command}`);
      if (info.isFile && (info.mode ?? 0o111) & 0o111) return `${dir}/${command}`;
    } catch { /* not here */ }
  }
  return undefined;
}

/**
 * Makes an installed `mcpx` runnable from the shell (see the module doc).
 *
 * @param bin The folder holding the installed `mcpx` launcher.
 * @param env The environment the user's shell has (PATH, HOME, SHELL).
 * @param deno This Deno's executable, written into the launcher when `deno` is not on PATH.
 * @returns What was done about PATH.
 */
export function putOnPath(
  bin: string,
  env: Record<string, string | undefined>,
  deno: string,
): PathOutcome {
  const launcher = `${bin}/mcpx`;
  if (!which("deno", env.PATH)) {
    const text = Deno.readTextFileSync(launcher);
    Deno.writeTextFileSync(launcher, text.replace(/^exec deno /m, `exec '${deno}' `));
  }
  if (onPath(bin, env.PATH)) return { kind: "on-path" };
  const local = `${env.HOME ?? ""}/.local/bin`;
  if (env.HOME && onPath(local, env.PATH)) {
    try {
      if (Deno.statSync(local).isDirectory) {
        const link = `${local}/mcpx`;
        let existing: string | undefined;
        try {
          existing = Deno.readLinkSync(link);
        } catch { /* none, or not a link */ }
        if (existing === launcher) return { kind: "linked", link };
        Deno.symlinkSync(launcher, link);
        return { kind: "linked", link };
      }
    } catch { /* not there, not writable, or taken: print the line instead */ }
  }
  return { kind: "add-line", ...pathLine(bin, env.SHELL) };
}

if (import.meta.main) {
  const root = fromFileUrl(new URL("..", import.meta.url));
  const env = Deno.env.toObject();
  const installed = await new Deno.Command(Deno.execPath(), {
    args: [
      "install",
      "-g",
      "-A",
      "-f",
      "-q",
      "-n",
      "mcpx",
      "--config",
      `${root}deno.json`,
      // The warm commands in one prebuilt module, which hands the others to cli/main.ts
      // (decision 0027).
      `${root}cli/mcpx.bundle.js`,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (installed.code !== 0) Deno.exit(installed.code);
  // The bundles import nothing at install, so fetch now what the other commands (cli/main.ts
  // and each command's module) and the daemon (daemon/daemon.bundle.js, built from daemon/main.ts) import, as installing
  // cli/main.ts itself did: no first command downloads.
  const cached = await new Deno.Command(Deno.execPath(), {
    args: [
      "install",
      "-q",
      "--config",
      `${root}deno.json`,
      "--entrypoint",
      `${root}cli/main.ts`,
      `${root}daemon/main.ts`,
      // cli/main.ts loads each command's module by a computed specifier (cli/commands.ts).
      ...new Set(Object.values(COMMAND_FILES).map((file) => `${root}cli/${file.slice(2)}`)),
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (cached.code !== 0) Deno.exit(cached.code);
  const bin = installBinDir(env);
  const outcome = putOnPath(bin, env, Deno.execPath());
  console.log(`installed ${bin}/mcpx`);
  if (outcome.kind === "on-path") console.log(`${bin} is on PATH: run \`mcpx --version\``);
  else if (outcome.kind === "linked") {
    console.log(`linked ${outcome.link} (on PATH): run \`mcpx --version\``);
  } else {
    console.log(
      `${bin} is not on PATH. Add this line to ${outcome.file}, then open a new shell:\n\n` +
        `  ${outcome.line}\n`,
    );
  }
}

/**
 * `deno task install`: installs `mcpx` and makes sure the shell can run it.
 * The command is the launcher (cli/mcpx, decision 0068) with this checkout
 * and this Deno's full path written in (Deno may have come from
 * `npx -y deno@…`, with no `deno` on PATH), put where `deno install -g`
 * puts commands: `$DENO_INSTALL_ROOT/bin` (default `~/.deno/bin`), which is
 * often not on PATH. So, after installing:
 *
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

/**
 * The launcher as installed: cli/mcpx with `root=` (the checkout, no
 * trailing `/`) and `deno=` (an executable's full path) filled in.
 *
 * @throws {Error} When cli/mcpx has no `root=` or `deno=` line to fill.
 *
 * @example
 * ```ts
 * import { installedLauncher } from "./install.ts";
 * const text = installedLauncher("root=\ndeno=deno\nexec x\n", "/opt/it's", "/bin/deno");
 * if (text !== "root='/opt/it'\\''s'\ndeno='/bin/deno'\nexec x\n") throw new Error(text);
 * ```
 */
export function installedLauncher(template: string, root: string, deno: string): string {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  if (!/^root=$/m.test(template) || !/^deno=deno$/m.test(template)) {
    throw new Error("cli/mcpx has no `root=` and `deno=deno` lines to fill in");
  }
  return template.replace(/^root=$/m, () => `root=${quote(root)}`)
    .replace(/^deno=deno$/m, () => `deno=${quote(deno)}`);
}

/**
 * Makes an installed `mcpx` runnable from the shell (see the module doc).
 *
 * @param bin The folder holding the installed `mcpx` launcher.
 * @param env The environment the user's shell has (PATH, HOME, SHELL).
 * @returns What was done about PATH.
 */
export function putOnPath(
  bin: string,
  env: Record<string, string | undefined>,
): PathOutcome {
  const launcher = `${bin}/mcpx`;
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
  const bin = installBinDir(env);
  // Fetch now what the commands (cli/main.ts and each command's module, the bundle's packages)
  // and the daemon (daemon/daemon.bundle.js, built from daemon/main.ts) import: no first command
  // downloads.
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
  const template = await Deno.readTextFile(`${root}cli/mcpx`);
  await Deno.mkdir(bin, { recursive: true });
  const launcher = `${bin}/mcpx`;
  await Deno.writeTextFile(
    launcher,
    installedLauncher(template, root.replace(/\/$/, ""), Deno.execPath()),
  );
  await Deno.chmod(launcher, 0o755);
  const outcome = putOnPath(bin, env);
  console.log(`installed ${launcher}`);
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

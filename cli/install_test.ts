import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { pathLine } from "./install.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));
const DENO_DIR = Deno.env.get("DENO_DIR") ||
  `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`;

/** Runs `deno task install` as a user would, with `env` as the whole environment. */
async function install(env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", `${ROOT}deno.json`, "install"],
    env: { DENO_DIR, ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  return text;
}

/** Runs `mcpx --version` the way a shell with `path` finds it. */
async function version(path: string, home: string): Promise<string> {
  const out = await new Deno.Command("/bin/sh", {
    args: ["-c", "mcpx --version"],
    env: { PATH: path, HOME: home, DENO_DIR },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

Deno.test("deno task install puts mcpx on PATH or prints the one line to add", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-install-" });
  try {
    const home = `${dir}/home`;
    const bin = `${dir}/root/bin`;
    // A PATH without deno (as after `npx -y deno@… task install`), holding only `sh`.
    const tools = `${dir}/tools`;
    await Deno.mkdir(tools, { recursive: true });
    await Deno.symlink("/bin/sh", `${tools}/sh`);
    const base = { HOME: home, DENO_INSTALL_ROOT: `${dir}/root`, SHELL: "/bin/bash" };

    await t.step("prints the line when no folder on PATH will do", async () => {
      await Deno.mkdir(home, { recursive: true });
      const text = await install({ ...base, PATH: tools });
      assert.match(text, new RegExp(`Add this line to ~/\\.bashrc`));
      assert.ok(text.includes(`export PATH="${bin}:$PATH"`), text);
      // Following the advice works, with no deno on PATH.
      assert.match(await version(`${bin}:${tools}`, home), /^mcpx \d+\.\d+\.\d+/);
    });

    await t.step("links mcpx into ~/.local/bin when that folder is on PATH", async () => {
      await Deno.mkdir(`${home}/.local/bin`, { recursive: true });
      const path = `${tools}:${home}/.local/bin`;
      const text = await install({ ...base, PATH: path });
      assert.match(text, /linked .*\/\.local\/bin\/mcpx \(on PATH\)/);
      assert.match(await version(path, home), /^mcpx \d+\.\d+\.\d+/);
    });

    await t.step("says so when the install folder is on PATH", async () => {
      const text = await install({ ...base, PATH: `${bin}:${tools}` });
      assert.match(text, /is on PATH/);
      assert.doesNotMatch(text, /export PATH/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pathLine() names the startup file and line of the user's shell", () => {
  assert.deepEqual(pathLine("/h/.deno/bin", "/usr/bin/zsh"), {
    line: 'export PATH="/h/.deno/bin:$PATH"',
    file: "~/.zshrc",
  });
  assert.deepEqual(pathLine("/h/.deno/bin", "/usr/bin/fish"), {
    line: "fish_add_path /h/.deno/bin",
    file: "~/.config/fish/config.fish",
  });
  assert.equal(pathLine("/x", undefined).file, "~/.profile");
});

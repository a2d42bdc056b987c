/**
 * `mcpx completion bash|zsh|fish` loaded into the real shell and driven as a
 * person's <Tab> drives it: a partial command word, a partial flag, a flag's
 * value from the table, and a namespace and an `ns.tool` from the schema
 * cache of a real configuration (a fixture server listed once with `mcpx ls`,
 * then the daemon stopped: completing must start neither again).
 *
 * bash is driven through its completion function (`COMP_WORDS`, `COMP_CWORD`),
 * zsh through a pseudo-terminal (`zpty`) with `compadd` wrapped to report
 * what completion offered, and fish with `complete -C`. A shell that is not
 * installed fails its step with the Debian package to install (CI installs
 * them: .ci/run).
 */
import { mcpxInProcess as inProcess } from "./_in_process.ts";
import assert from "node:assert/strict";
import { fixtureServer, mcpxArgv, world } from "./_helpers.ts";
import { completion, completionWords, man } from "../ops/meta_ops.ts";
import { completionModel } from "../cli/completion/completion_model.ts";

/** What a shell printed. */
async function runShell(
  shell: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<string> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(shell, {
      args,
      env: options.env,
      clearEnv: true,
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(
        `${shell} is not installed, and the completion tests run it: apt-get install ${shell}`,
      );
    }
    throw error;
  }
  const decoder = new TextDecoder();
  const stdout = decoder.decode(out.stdout);
  assert.equal(
    out.code,
    0,
    `${shell} exited ${out.code}:\n${stdout}\n${decoder.decode(out.stderr)}`,
  );
  return stdout;
}

/** A shell single-quoted word (bash, zsh and POSIX sh alike). */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Drives zsh's completion in a pseudo-terminal (see the file). */
const ZSH_DRIVER = new URL("./fixtures/completion/zsh_drive.zsh", import.meta.url).pathname;

Deno.test("mcpx completion: bash, zsh and fish complete commands, flags, values and cached names", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fixture: fixtureServer() } });
  const ls = await w.json<{ namespaces: { namespace: string; tools: number }[] }>(["ls"]);
  assert.ok(ls.namespaces.some((n) => n.namespace === "fixture" && n.tools > 0), "not listed");
  const stopped = await w.mcpx(["stop"]);
  assert.equal(stopped.code, 0, stopped.stderr);
  // The scripts call `mcpx` by name: put one on PATH that runs this checkout.
  const bin = `${w.dir}/bin`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    `${bin}/mcpx`,
    `#!/bin/sh\nexec ${mcpxArgv().map(quote).join(" ")} "$@"\n`,
    { mode: 0o755 },
  );
  const env = { ...w.env, PATH: `${bin}:${w.env.PATH ?? "/usr/bin:/bin"}` };
  const run = (shell: string, args: string[]) => runShell(shell, args, { env, cwd: w.dir });
  const tools = "fixture.count fixture.crash fixture.echo fixture.hang fixture.sleep";

  await t.step("bash", async () => {
    const lines = [
      ["mcpx", "se"],
      ["mcpx", "search", "--ex"],
      ["mcpx", "--js"],
      ["mcpx", "run", "--runtime", ""],
      ["mcpx", "types", "fi"],
      ["mcpx", "--json", "call", "fixture.e"],
      ["mcpx", "restart", ""],
    ];
    const out = await run("bash", [
      "-c",
      [
        "source <(mcpx completion bash)",
        "complete -p mcpx",
        't() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; ' +
        "COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _mcpx; " +
        `printf '%s\\n' "$(printf '%s\\n' "\${COMPREPLY[@]}" | sort -u | tr '\\n' ' ')"; }`,
        ...lines.map((words) => `t ${words.map(quote).join(" ")}`),
      ].join("\n"),
    ]);
    assert.deepEqual(out.split("\n").map((l) => l.trim()).filter((l) => l !== ""), [
      "complete -F _mcpx mcpx",
      "search serve service session",
      "--explain",
      "--json",
      "bun deno node",
      `fixture ${tools}`,
      "fixture.echo",
      "fixture",
    ]);
  });

  await t.step("zsh", async () => {
    const script = `${w.dir}/mcpx.zsh`;
    // An empty script would leave zsh completing nothing, which reads as every line failing.
    const generated = await w.mcpx(["completion", "zsh"]);
    assert.equal(generated.code, 0, `mcpx completion zsh failed:\n${generated.stderr}`);
    assert.match(generated.stdout, /^#compdef mcpx/, `no zsh script:\n${generated.stderr}`);
    await Deno.writeTextFile(script, generated.stdout);
    const out = await run("zsh", [
      "-f",
      ZSH_DRIVER,
      script,
      "mcpx se",
      "mcpx search --ex",
      "mcpx --js",
      "mcpx run --runtime ",
      "mcpx types fi",
      "mcpx --json call fixture.e",
    ]);
    assert.deepEqual(out.trimEnd().split("\n"), [
      "search serve service session",
      "--explain",
      "--json",
      "bun deno node",
      `fixture ${tools}`,
      "fixture.echo",
    ]);
    // compinit's dump path once was /dev/null: zsh wrote a file beside it and renamed it over,
    // which left the machine without /dev/null (tmux, and every `>/dev/null`, then failed).
    assert.ok(Deno.statSync("/dev/null").isCharDevice, "driving zsh replaced /dev/null");
  });

  await t.step("fish", async () => {
    const lines = [
      "mcpx se",
      "mcpx search --ex",
      "mcpx --js",
      "mcpx run --runtime ",
      "mcpx types fi",
      "mcpx --json call fixture.e",
    ];
    const out = await run("fish", [
      "-c",
      [
        "mcpx completion fish | source",
        ...lines.map((line) =>
          `echo (complete -C ${quote(line)} | string replace -r '\\t.*' '' | sort -u)`
        ),
      ].join("\n"),
    ]);
    assert.deepEqual(out.trimEnd().split("\n"), [
      "search serve service session",
      "--explain",
      "--json",
      "bun deno node",
      `fixture ${tools}`,
      "fixture.echo",
    ]);
  });

  await t.step("--config on the line is handed on to the names' lookup", async () => {
    // From a folder where no configuration is found, only `--config` names one.
    const outside = await Deno.makeTempDir({ prefix: "mcpx-completion-" });
    try {
      const config = `${w.dir}/.mcp.json`;
      const inShell = (shell: string, args: string[]) =>
        runShell(shell, args, { env, cwd: outside });
      const bash = await inShell("bash", [
        "-c",
        "source <(mcpx completion bash)\n" +
        `COMP_WORDS=(mcpx --config ${quote(config)} restart fi); COMP_CWORD=4; _mcpx\n` +
        'echo "${COMPREPLY[*]}"\n' +
        "COMP_WORDS=(mcpx restart fi); COMP_CWORD=2; COMPREPLY=(); _mcpx\n" +
        'echo "[${COMPREPLY[*]}]"',
      ]);
      assert.equal(bash, "fixture\n[]\n");
      const script = `${w.dir}/mcpx.zsh`;
      const zsh = await inShell("zsh", [
        "-f",
        ZSH_DRIVER,
        script,
        `mcpx --config ${config} restart fi`,
        "mcpx restart fi",
      ]);
      assert.equal(zsh, "fixture\n\n");
      const fish = await inShell("fish", [
        "-c",
        "mcpx completion fish | source\n" +
        `echo (complete -C ${quote(`mcpx --config ${config} restart fi`)})\n` +
        "set -l none (complete -C 'mcpx restart fi'); echo \"[$none]\"",
      ]);
      assert.equal(fish, "fixture\n[]\n");
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });

  // Completing read the cache and the state files only: no daemon, no server.
  assert.deepEqual(w.processes(), []);
});

/** Runs `mcpx <argv>` in this process, in an empty home. */

Deno.test("mcpx --json completion, man and completion-words print their ops' output", async () => {
  for (const shell of ["bash", "zsh", "fish"] as const) {
    const result = await inProcess(["--json", "completion", shell]);
    assert.equal(result.code, 0, result.stderr);
    const doc = completion.output.parse(JSON.parse(result.stdout));
    assert.equal(doc.script, (await inProcess(["completion", shell])).stdout);
  }
  const page = await inProcess(["--json", "man"]);
  assert.equal(man.output.parse(JSON.parse(page.stdout)).page, (await inProcess(["man"])).stdout);
  const words = await inProcess(["--json", "completion-words", "setting"]);
  assert.ok(completionWords.output.parse(JSON.parse(words.stdout)).words.includes("search.limit"));
  // No configuration: no namespaces, and no error (a <Tab> offers nothing).
  const none = await inProcess(["completion-words", "namespace"]);
  assert.deepEqual([none.code, none.stdout], [0, ""]);
});

Deno.test("JSON output set by the environment does not turn a completion script into JSON", async () => {
  // A shell that sources `mcpx completion bash` with MCPX_OUTPUT_JSON exported once ran the JSON
  // text as shell code, and the backticks in it ran `mcpx completion bash` again, without end.
  const envs: Record<string, string>[] = [{ MCPX_OUTPUT_JSON: "1" }, {
    MCPX_OUTPUT_FORMAT: "json",
  }];
  for (const env of envs) {
    for (const shell of ["bash", "zsh", "fish"] as const) {
      const result = await inProcess(["completion", shell], env);
      assert.equal(result.stdout, (await inProcess(["completion", shell])).stdout);
    }
    assert.equal((await inProcess(["man"], env)).stdout, (await inProcess(["man"])).stdout);
    const words = await inProcess(["completion-words", "setting"], env);
    assert.ok(words.stdout.split("\n").includes("search.limit"), words.stdout);
  }
});

Deno.test("mcpx completion refuses a shell it has no script for", async () => {
  const missing = await inProcess(["completion"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /`mcpx completion` needs <bash\|zsh\|fish>/);
  const other = await inProcess(["completion", "tcsh"]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /shell must be one of bash, zsh, fish, got "tcsh"/);
});

Deno.test("completionModel() takes a flag's value the same way in every command", () => {
  // The scripts skip the word after any spelling in `valued` when they count
  // positionals, whatever the command: a spelling that took a value in one
  // command and none in another would miscount.
  const model = completionModel();
  const valued = new Set(model.valued);
  for (const c of [{ command: "(global)", flags: model.global }, ...model.commands]) {
    for (const f of c.flags) {
      for (const spelling of [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])]) {
        assert.equal(valued.has(spelling), f.value, `${c.command} ${spelling}`);
      }
    }
  }
  assert.ok(!model.commands.some((c) => c.command === "completion-words"), "plumbing shown");
});

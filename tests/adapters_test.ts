/**
 * Command-line programs as servers (spec 000, "Command-line programs as
 * servers"; decision 0052): `paths.adapters` declarations become namespaces
 * the daemon runs as `mcpx adapter serve <name>`, listed, typed and called as
 * any other, from the command line and from a script's generated client;
 * `mcpx adapter check` says whether each program is installed. Real programs:
 * git on a temporary repository, ls, grep.
 */

import assert from "node:assert/strict";
import { world } from "./_helpers.ts";

const ADAPTERS = {
  adapters: [
    {
      name: "gitx",
      command: "git",
      cwd: "repo",
      description: "git in the test repository",
      tools: [
        {
          name: "log",
          args: ["log", "--format=%s"],
          params: [{ name: "limit", flag: "-n", type: "integer", default: "10" }],
        },
        {
          name: "status",
          args: ["status"],
          params: [{ name: "short", flag: "--short", type: "boolean" }],
        },
      ],
    },
    {
      name: "files",
      command: "ls",
      cwd: "repo",
      tools: [{
        name: "list",
        params: [{ name: "all", flag: "-a", type: "boolean" }, {
          name: "dir",
          position: 0,
          default: ".",
        }],
      }],
    },
    {
      name: "grepx",
      command: "grep",
      cwd: "repo",
      tools: [{
        name: "find",
        params: [
          { name: "ignoreCase", flag: "-i", type: "boolean" },
          { name: "pattern", position: 0, required: true },
          { name: "file", position: 1, required: true },
        ],
      }],
    },
  ],
};

async function git(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd: dir,
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

Deno.test("adapters: declared programs are namespaces listed, typed, called and scripted", async () => {
  await using w = await world();
  const repo = `${w.dir}/repo`;
  await Deno.mkdir(repo);
  await git(repo, "init", "-q");
  await Deno.writeTextFile(`${repo}/notes.txt`, "Alpha\nbeta\n");
  await git(repo, "add", "notes.txt");
  await git(repo, "commit", "-q", "-m", "first");
  await git(repo, "commit", "-q", "--allow-empty", "-m", "second");
  await Deno.writeTextFile(`${repo}/untracked.txt`, "x");
  await Deno.writeTextFile(`${w.dir}/adapters.json`, JSON.stringify(ADAPTERS));
  await w.writeConfig({
    mcpServers: { clash: { command: "true" } },
    paths: { adapters: ["./adapters.json"] },
  });

  // Every declared program is installed here.
  const check = await w.json<{ adapters: { name: string; installed: boolean; tools: number }[] }>(
    ["adapter", "check"],
  );
  assert.deepEqual(
    check.adapters.map((a) => [a.name, a.installed, a.tools]),
    [["gitx", true, 2], ["files", true, 1], ["grepx", true, 1]],
  );

  // Namespaces like any other, typed from the declared params.
  const ls = await w.json<{ namespace: string; tools: number }[]>(["ls"]);
  const listed = Object.fromEntries(
    (Array.isArray(ls) ? ls : (ls as { namespaces: typeof ls }).namespaces)
      .map((n) => [n.namespace, n.tools]),
  );
  assert.equal(listed.gitx, 2);
  assert.equal(listed.grepx, 1);
  const types = await w.mcpx(["types", "gitx.log"]);
  assert.equal(types.code, 0, types.stderr);
  assert.match(types.stdout, /function log\(args: \{ \/\*\* default 10 \*\/ limit\?: number \}\)/);

  // A non-zero exit is a result; a boolean is the flag's presence.
  const none = await w.json(["call", "grepx.find", '{"pattern":"gamma","file":"notes.txt"}']);
  assert.equal(none.structuredContent.exitCode, 1);
  // An argument that would be read as an option is refused, never run.
  const dash = await w.mcpx(["call", "files.list", '{"dir":"--version"}']);
  assert.equal(dash.code, 1);
  assert.match(dash.stderr, /begins with "-" and would be read as an option/);

  // A script calls every tool through the generated client.
  await Deno.writeTextFile(
    `${w.dir}/use.ts`,
    `import tools from "./mcpx-client.ts";
export default async function main() {
  return {
    log: await tools.gitx.log({ limit: 1 }),
    short: (await gitx.status({ short: true })).stdout,
    long: (await gitx.status({})).stdout.includes("Untracked files"),
    list: (await files.list({ all: true })).stdout.split("\\n").filter(Boolean),
    found: (await grepx.find({ pattern: "alpha", file: "notes.txt", ignoreCase: true })).stdout,
  };
}
`,
  );
  const run = await w.mcpx(["run", "./use.ts"]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.deepEqual(result.log, { exitCode: 0, stdout: "second\n", stderr: "" });
  assert.equal(result.short, "?? untracked.txt\n");
  assert.equal(result.long, true);
  assert.ok(result.list.includes(".git") && result.list.includes("notes.txt"), run.stdout);
  assert.equal(result.found, "Alpha\n");

  // A declaration that takes a configured server's name is refused, naming both.
  await Deno.writeTextFile(
    `${w.dir}/clash.json`,
    JSON.stringify({ adapters: [{ name: "clash", command: "ls", tools: [{ name: "x" }] }] }),
  );
  const clash = await w.mcpx(["ls"], { env: { MCPX_PATHS_ADAPTERS: `${w.dir}/clash.json` } });
  assert.equal(clash.code, 1);
  assert.match(clash.stderr, /adapter "clash" takes the name of the configured server "clash"/);

  // A program that is not installed fails the check, naming it.
  await Deno.writeTextFile(
    `${w.dir}/missing.json`,
    JSON.stringify({
      adapters: [{ name: "ghost", command: "mcpx-no-such-program", tools: [{ name: "x" }] }],
    }),
  );
  const missing = await w.mcpx(["adapter", "check", "--from", "missing.json"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /mcpx-no-such-program is not installed \(not found on PATH\)/);
  // A --from file that is not there is --from's problem, not paths.adapters'.
  const nothere = await w.mcpx(["adapter", "check", "--from", "nothere.json"]);
  assert.equal(nothere.code, 1);
  assert.match(nothere.stderr, /--from names this place, which does not exist/);
  assert.doesNotMatch(nothere.stderr, /paths\.adapters/);
});

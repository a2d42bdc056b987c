/**
 * The script sandbox works for a normal user, not only for root (issue 9;
 * decision 0016): as root, bubblewrap mounts without a user namespace; as
 * anyone else it needs one, which is the path users take. A second local
 * user (made with `useradd` for the test, removed after it) runs the exact
 * bwrap and deno command lines mcpx builds (runner/sandbox.ts,
 * runner/runtime.ts) around a script: a symlink out of its folder leads
 * nowhere, the daemon's socket answers, and the socket's directory inside is
 * the user's and 0700, as the clients' check wants it. Needs root (CI runs as
 * root) and bwrap; skipped, saying so, otherwise.
 *
 * @module
 */

import assert from "node:assert/strict";
import { sandboxArgs } from "../runner/sandbox.ts";
import { runtimeArgs, runtimeFlags } from "../runner/runtime.ts";
import { parsePermissions } from "../runner/permissions.ts";

/** The second user's name, unique to this file. */
const OTHER_USER = "mcpxsbxtest";
const SKIP = Deno.uid() !== 0
  ? "needs root to create a second local user with useradd"
  : !bwrapPath()
  ? "needs bubblewrap (/usr/bin/bwrap)"
  : undefined;

function bwrapPath(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/bwrap`).isFile) return `${dir}/bwrap`;
    } catch { /* not here */ }
  }
  return null;
}

async function run(command: string, args: string[]) {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** `setpriv` arguments that run the rest as `uid`/`gid`. */
function as(uid: number, gid: number): string[] {
  return [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups"];
}

Deno.test({
  name: `a normal user's script runs sandboxed: symlinks lead nowhere, the socket answers${
    SKIP ? ` (skipped: ${SKIP})` : ""
  }`,
  ignore: SKIP !== undefined,
  async fn() {
    await run("userdel", [OTHER_USER]); // a run killed before its cleanup left it
    const made = await run("useradd", ["--no-create-home", "--shell", "/bin/sh", OTHER_USER]);
    assert.equal(made.code, 0, `useradd failed: ${made.stderr}`);
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-sbx-user-" }));
    try {
      const uid = Number((await run("id", ["-u", OTHER_USER])).stdout.trim());
      const gid = Number((await run("id", ["-g", OTHER_USER])).stdout.trim());
      for (const sub of ["jobs", "outside", "sockets", "deno"]) await Deno.mkdir(`${dir}/${sub}`);
      await Deno.writeTextFile(`${dir}/outside/secret.ts`, 'export const secret = "OUT-77";\n');
      await Deno.symlink("../outside", `${dir}/jobs/link`);
      await Deno.writeTextFile(
        `${dir}/jobs/job.ts`,
        `const out: Record<string, unknown> = { uid: Deno.uid() };
try { out.link = (await import(Deno.args[0] + "/link/secret.ts")).secret; } catch (e) { out.link = (e as Error).name; }
const info = Deno.lstatSync(Deno.args[1].slice(0, Deno.args[1].lastIndexOf("/")));
out.socketDir = { uid: info.uid, mode: (info.mode! & 0o777).toString(8) };
const conn = await Deno.connect({ transport: "unix", path: Deno.args[1] });
const buf = new Uint8Array(4);
await conn.read(buf);
out.socket = new TextDecoder().decode(buf);
console.log(JSON.stringify(out));
`,
      );
      await run("chown", ["-R", `${uid}:${gid}`, dir]);
      await Deno.chmod(`${dir}/sockets`, 0o700);
      const socket = `${dir}/sockets/d.sock`;

      // The "daemon": one answer on the socket, listening as the other user.
      const daemon = new Deno.Command("setpriv", {
        args: [
          ...as(uid, gid),
          Deno.execPath(),
          "eval",
          `const l = Deno.listen({ transport: "unix", path: ${JSON.stringify(socket)} });
const c = await l.accept(); await c.write(new TextEncoder().encode("pong")); c.close(); l.close();`,
        ],
        env: { DENO_DIR: `${dir}/deno`, HOME: dir },
        stdout: "null",
        stderr: "piped",
      }).spawn();
      const deadline = Date.now() + 30_000;
      while (!(await Deno.stat(socket).catch(() => null))) {
        assert.ok(Date.now() < deadline, "the socket never appeared");
        await new Promise((r) => setTimeout(r, 50));
      }

      const level = parsePermissions("none");
      assert.ok(!("problem" in level) && !level.all);
      const deno = await Deno.realPath(Deno.execPath());
      const reach = {
        scriptDir: `${dir}/jobs`,
        entry: `${dir}/jobs/job.ts`,
        client: `${dir}/jobs/job.ts`,
        socket,
      };
      const args = [
        ...sandboxArgs({
          level,
          runtime: "deno",
          runtimePath: deno,
          ...reach,
          cwd: dir,
          denoDir: `${dir}/deno`,
        }),
        deno,
        ...runtimeArgs(
          { name: "deno", path: deno },
          reach.entry,
          [`${dir}/jobs`, socket],
          runtimeFlags({ name: "deno", path: deno }, level, reach),
        ),
      ];
      const out = await new Deno.Command("setpriv", {
        args: [...as(uid, gid), bwrapPath()!, ...args],
        env: { DENO_DIR: `${dir}/deno`, HOME: dir, PATH: "/usr/bin:/bin" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      const seen = JSON.parse(new TextDecoder().decode(out.stdout));
      assert.equal(seen.uid, uid, "the script runs as the user");
      assert.equal(seen.link, "TypeError", "the symlink out of the folder leads nowhere");
      assert.deepEqual(seen.socketDir, { uid, mode: "700" });
      assert.equal(seen.socket, "pong");
      await daemon.status;
    } finally {
      await run("userdel", [OTHER_USER]);
      await Deno.remove(dir, { recursive: true });
    }
  },
});

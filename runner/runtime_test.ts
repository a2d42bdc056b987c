import assert from "node:assert/strict";
import { runtimeArgs, runtimeFlags } from "./runtime.ts";
import { parsePermissions, type PermissionLevel } from "./permissions.ts";

const reach = {
  scriptDir: "/p/scripts",
  entry: "/c/launchers/a.ts",
  client: "/c/clients/b.ts",
  socket: "/s/sockets/f.sock",
};
const deno = { name: "deno" as const, path: "/bin/deno" };
const node = { name: "node" as const, path: "/bin/node", version: [22, 23] as [number, number] };
const bun = { name: "bun" as const, path: "/bin/bun" };

function level(text: string): PermissionLevel {
  const parsed = parsePermissions(text);
  assert.ok(!("problem" in parsed));
  return parsed;
}

Deno.test("runtimeFlags() under deno: -A for all; otherwise narrowed to what the client needs", () => {
  assert.deepEqual(runtimeFlags(deno, level("all"), reach), ["-A"]);
  assert.deepEqual(runtimeFlags(deno, level("none"), reach), [
    "--no-prompt",
    "--allow-read=/p/scripts,/c/launchers/a.ts,/c/clients/b.ts,/s/sockets,/s/sockets/f.sock",
    "--allow-write=/s/sockets/f.sock",
    "--allow-net=unix:/s/sockets/f.sock",
    "--allow-env=MCPX_*,GIT_DIR,GIT_WORK_TREE",
    "--allow-sys=uid",
  ]);
  assert.deepEqual(runtimeFlags(deno, level("read,env,run,import"), reach), [
    "--no-prompt",
    "--allow-read",
    "--allow-write=/s/sockets/f.sock",
    "--allow-net=unix:/s/sockets/f.sock",
    "--allow-env",
    "--allow-sys=uid",
    "--allow-run",
    "--allow-import",
  ]);
  const comma = runtimeFlags(deno, level("none"), { ...reach, scriptDir: "/p/a,b" });
  assert.ok(
    comma.includes(
      "--allow-read=/p/a,,b,/c/launchers/a.ts,/c/clients/b.ts,/s/sockets,/s/sockets/f.sock",
    ),
  );
});

Deno.test("runtimeFlags() under node: --permission with reads of the reachable paths", () => {
  assert.deepEqual(runtimeFlags(node, level("all"), reach), []);
  assert.deepEqual(runtimeFlags(node, level("env,sys"), reach), [
    "--permission",
    "--allow-fs-read=/p/scripts",
    "--allow-fs-read=/c/launchers/a.ts",
    "--allow-fs-read=/c/clients/b.ts",
    "--allow-fs-read=/s/sockets",
  ]);
  assert.deepEqual(runtimeFlags(node, level("read,write,run,ffi,env,sys"), reach), [
    "--permission",
    "--allow-fs-read=*",
    "--allow-fs-write=*",
    "--allow-child-process",
    "--allow-addons",
    "--allow-wasi",
  ]);
  const old = runtimeFlags({ ...node, version: [22, 6] }, level("env,sys"), reach);
  assert.equal(old[0], "--experimental-permission");
});

Deno.test("runtimeFlags() under bun adds nothing: it has no permission model", () => {
  assert.deepEqual(runtimeFlags(bun, level("env,sys,run,ffi"), reach), []);
});

Deno.test("runtimeArgs() puts the flags where each runtime reads them", () => {
  assert.deepEqual(runtimeArgs(deno, "/e.ts", ["a"], ["-A"]), [
    "run",
    "--no-check",
    "--quiet",
    "-A",
    "/e.ts",
    "a",
  ]);
  assert.deepEqual(runtimeArgs(node, "/e.mts", ["a"], ["--permission"]), [
    "--experimental-strip-types",
    "--disable-warning=ExperimentalWarning",
    "--permission",
    "/e.mts",
    "a",
  ]);
});

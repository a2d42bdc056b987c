import assert from "node:assert/strict";
import {
  parsePermissions,
  type PermissionLevel,
  refusal,
  unenforceable,
  withholdingTable,
} from "./permissions.ts";

function level(text: string): PermissionLevel {
  const parsed = parsePermissions(text);
  assert.ok(!("problem" in parsed), text);
  return parsed;
}

Deno.test("parsePermissions() reads all, none and lists, and names unknown names", () => {
  assert.deepEqual(parsePermissions(""), { all: true, text: "all" });
  assert.deepEqual(parsePermissions(" all "), { all: true, text: "all" });
  const none = level("none");
  assert.ok(!none.all && none.granted.size === 0 && none.text === "none");
  const some = level("read, net");
  assert.ok(!some.all && some.granted.has("read") && some.granted.has("net"));
  assert.equal(some.text, "read,net");
  const bad = parsePermissions("read,disk,all");
  assert.ok("problem" in bad);
  assert.match(bad.problem, /unknown "disk", "all"; use all, none, or a comma list of read, /);
});

Deno.test("unenforceable() holds each runtime to what it can withhold", () => {
  assert.deepEqual(unenforceable(level("none"), "deno"), []);
  assert.deepEqual(unenforceable(level("all"), "bun"), []);
  assert.deepEqual(unenforceable(level("none"), "node"), ["env", "sys"]);
  assert.deepEqual(unenforceable(level("env,sys"), "node"), []);
  assert.deepEqual(unenforceable(level("env,sys"), "bun"), ["run", "ffi"]);
  // bun fetches remote modules over the network it is given: net and import go together.
  assert.deepEqual(unenforceable(level("env,sys,run,ffi,net"), "bun"), ["import"]);
  assert.deepEqual(unenforceable(level("env,sys,run,ffi,import"), "bun"), ["net"]);
  assert.deepEqual(unenforceable(level("env,sys,run,ffi,net,import"), "bun"), []);
  assert.deepEqual(unenforceable(level("env,sys,run,ffi"), "bun"), []);
});

Deno.test("refusal() names the level, the runtime, what it cannot withhold and the fixes", () => {
  assert.equal(refusal(level("none"), "deno", "script.runtime deno"), null);
  assert.equal(refusal(level("all"), "node", "--runtime node"), null);
  assert.equal(
    refusal(level("read"), "node", "--runtime node"),
    'script.permissions "read" cannot be enforced under --runtime node: node cannot withhold ' +
      "env (environment variables), sys (system information); grant them (script.permissions " +
      "read,env,sys), run the script under deno (--runtime deno), or set script.permissions to all",
  );
  const bun = refusal(level("env,sys,run,net"), "bun", "MCPX_SCRIPT_RUNTIME=bun");
  assert.ok(bun);
  assert.match(bun, /under MCPX_SCRIPT_RUNTIME=bun: bun cannot withhold ffi \(native code\), /);
  assert.match(bun, /import \(remote modules\); grant them \(script\.permissions env,sys,run,/);
});

Deno.test("docs/scripts.md holds the table of what each level withholds under each runtime", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/scripts.md", import.meta.url));
  // deno fmt pads the columns: compare cell by cell.
  const rows = (text: string) =>
    text.split("\n").filter((l) => l.startsWith("|")).map((l) =>
      l.split("|").slice(1, -1).map((c) => c.trim().replace(/^-+$/, "---"))
    );
  const table = rows(withholdingTable());
  const start = doc.split("\n").findIndex((l) => l.startsWith("| withheld "));
  assert.ok(start >= 0, "docs/scripts.md has no table starting with `| withheld`");
  const inDoc = rows(doc.split("\n").slice(start, start + table.length).join("\n"));
  assert.deepEqual(inDoc, table, "regenerate the table with withholdingTable()");
});

import assert from "node:assert/strict";
import { namespaceObject, UnknownToolError } from "./namespace_object.ts";

const call = (name: string) => (args?: unknown) => Promise.resolve({ name, args });

Deno.test("namespaceObject() throws UnknownToolError with the CLI's did-you-mean for a tool it lacks", () => {
  const cd = namespaceObject("cd", [["take_screenshot", call("take_screenshot")]], [[
    "take-screenshot",
    "take_screenshot",
  ]]);
  assert.throws(
    () => cd.take_screenshotx({}),
    (e: unknown) => {
      assert.ok(e instanceof UnknownToolError);
      assert.equal(e.code, "unknown-tool");
      assert.equal(e.tool, "take_screenshotx");
      assert.deepEqual(e.suggestions, ["cd.take_screenshot", "cd.take-screenshot"]);
      assert.equal(
        e.message,
        'unknown tool "cd.take_screenshotx"; did you mean cd.take_screenshot or ' +
          "cd.take-screenshot? Run `mcpx search <words>` to find a tool.",
      );
      return true;
    },
  );
  assert.throws(() => cd.zzz, /unknown tool "cd\.zzz"\. Run `mcpx search/);
});

Deno.test("namespaceObject() reads what runtimes probe as on a plain object, and is no thenable", async () => {
  const ns = namespaceObject("odd", [["echo", call("echo")]], [], { $prompts: 1 });
  assert.equal(ns.then, undefined);
  assert.equal(await ns, ns);
  assert.equal(JSON.stringify(ns), "{}"); // a function member is left out
  assert.equal(ns.toJSON, undefined);
  assert.equal(ns.__proto__, undefined);
  assert.equal(ns.$prompts, 1);
  assert.equal(String(ns), "[namespace odd]");
  assert.ok("echo" in ns && !("nope" in ns));
  assert.deepEqual(Object.keys(ns), ["echo"]);
  assert.equal(Deno.inspect(ns).includes("echo"), true);
});

Deno.test("namespaceObject() with passThrough calls any tool by name for a namespace still starting", async () => {
  const hang = namespaceObject("hang", [], [], { $prompts: 1 }, call);
  assert.deepEqual(await hang.echo({ message: "x" }), { name: "echo", args: { message: "x" } });
  assert.deepEqual(await hang["get-sum"](), { name: "get-sum", args: undefined });
  // Still no thenable, and the client's own members are its own.
  assert.equal(hang.then, undefined);
  assert.equal(await hang, hang);
  assert.equal(hang.$prompts, 1);
  assert.deepEqual(Object.keys(hang), []);
});

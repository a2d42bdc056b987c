import assert from "node:assert/strict";
import { bundleModule } from "./bundle.ts";

function reader(files: Record<string, string>) {
  return (url: URL) => {
    const text = files[url.pathname];
    if (text === undefined) return Promise.reject(new Deno.errors.NotFound(url.pathname));
    return Promise.resolve(text);
  };
}

Deno.test("bundleModule inlines relative imports first, without their exports", async () => {
  const text = await bundleModule(
    new URL("file:///r/client/entry.ts"),
    reader({
      "/r/client/entry.ts":
        'import { twice } from "../lib/twice.ts";\nimport type { N } from "../lib/types.ts";\nexport const four: N = twice(2);\n',
      "/r/lib/twice.ts":
        'import { one } from "./one.ts";\nexport function twice(n: number) {\n  return n * 2 * one;\n}\n',
      "/r/lib/one.ts": "export const one = 1;\n",
      "/r/lib/types.ts": "export type N = number;\n",
    }),
  );
  assert.ok(!/^import /m.test(text), text);
  assert.ok(text.indexOf("const one") < text.indexOf("function twice"));
  assert.ok(text.indexOf("function twice") < text.indexOf("export const four"));
  assert.match(text, /^function twice/m);
  assert.match(text, /^type N = number;/m);
});

Deno.test("bundleModule refuses a renamed import and a name declared twice", async () => {
  await assert.rejects(
    bundleModule(
      new URL("file:///r/a.ts"),
      reader({
        "/r/a.ts": 'import { x as y } from "./b.ts";\n',
        "/r/b.ts": "export const x = 1;\n",
      }),
    ),
    /renamed import/,
  );
  await assert.rejects(
    bundleModule(
      new URL("file:///r/a.ts"),
      reader({
        "/r/a.ts": 'import { x } from "./b.ts";\nconst x2 = x;\nfunction x() {}\n',
        "/r/b.ts": "export const x = 1;\n",
      }),
    ),
    /"x" is declared in both/,
  );
});

Deno.test("the real client runtime bundles into one module with no imports", async () => {
  const url = new URL("./script_runtime.ts", import.meta.url);
  const text = await bundleModule(url);
  assert.ok(!/^import\s/m.test(text));
  // callTool is inlined from its module (export dropped) and exported by the entry.
  assert.match(text, /^(async )?function callTool\(/m);
  assert.match(text, /^export \{[^}]*\bcallTool\b[^}]*\}/m);
});

Deno.test("the client cache's list of runtime inputs is what the bundle reads", async () => {
  const { RUNTIME_INPUTS } = await import("./client_file.ts");
  const read: string[] = [];
  await bundleModule(new URL("./script_runtime.ts", import.meta.url), (url) => {
    read.push(url.href);
    return Deno.readTextFile(url);
  });
  const expected = RUNTIME_INPUTS.map((i) => new URL(i, import.meta.url).href);
  assert.deepEqual([...read].sort(), [...expected].sort());
});

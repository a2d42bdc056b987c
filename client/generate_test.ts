import assert from "node:assert/strict";
import { generateClient, generateGlobals } from "./generate.ts";
import { toolEntry } from "../discovery/_fixtures.ts";
import type { NamespaceEntry } from "../discovery/types.ts";

const NAMESPACES: NamespaceEntry[] = [
  {
    namespace: "files",
    server: "files-server",
    description: "read files",
    tools: [
      toolEntry("files", "read_file", "Read a file", {
        server: "files-server",
        tool: "read-file",
        inputSchema: {
          type: "object",
          properties: { path: { type: "string", description: "where" } },
          required: ["path"],
        },
        outputSchema: {
          type: "object",
          properties: { content: { type: "string" } },
          required: ["content"],
        },
      }),
      toolEntry("files", "list", "List the folder"),
    ],
  },
  // Named like a runtime export: reachable as tools.search, never shadowing search().
  { namespace: "search", server: "search", description: "", tools: [toolEntry("search", "web")] },
];

/** Type-checks `path` with `deno check`; fails with its diagnostics. */
async function assertTypeChecks(path: string): Promise<void> {
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", path],
    stderr: "piped",
  }).output();
  assert.ok(check.success, new TextDecoder().decode(check.stderr));
}

/** Writes `files` (name → text) into a new temporary folder and type-checks its `script.ts`. */
async function assertScriptTypeChecks(files: Record<string, string>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    await assertTypeChecks(`${dir}/script.ts`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the generated client type-checks, and each namespace calls its server's real tool names", async () => {
  const text = await generateClient(NAMESPACES, "9.9.9");
  assert.match(text, /^\/\/ mcpx-client 9\.9\.9 sha256:[0-9a-f]{64}\n/);
  assert.ok(!/^import\s/m.test(text), "self-contained");
  assert.match(
    text,
    /read_file\(args: \{[\s\S]*?path: string[\s\S]*?\}, options\?: CallOptions\): Promise<\{/,
  );
  assert.match(text, /list\(args\?: \{/, "a tool with no required argument may be called bare");
  assert.match(text, /callTool\("files-server", "files", "read-file"/);
  assert.match(text, /"read-file": files_Tools\["read_file"\];/, "the real name is typed");
  assert.match(text, /const ns__search: search_Tools/);
  assert.match(text, /export const tools = \{ files, search: ns__search \}/);
  await assertScriptTypeChecks({
    "mcpx-client.ts": text,
    "mcpx-globals.d.ts": generateGlobals(NAMESPACES.map((n) => n.namespace)),
    "script.ts": '/// <reference path="./mcpx-globals.d.ts" />\n' +
      'import tools from "./mcpx-client.ts";\n' +
      'const r: { content: string } = await files.read_file({ path: "x" });\n' +
      "await tools.search.web();\nsearch('read');\nconsole.log(r.content);\n" +
      'await files["read-file"]({ path: "y" });\n',
  });
});

Deno.test("the client's hash changes with the schemas and with mcpx's version", async () => {
  const a = await generateClient(NAMESPACES, "1.0.0");
  const b = await generateClient(NAMESPACES, "1.0.1");
  const c = await generateClient(NAMESPACES.slice(0, 1), "1.0.0");
  const first = (t: string) => t.slice(0, t.indexOf("\n"));
  assert.notEqual(first(a), first(b));
  assert.notEqual(first(a), first(c));
  assert.equal(first(a), first(await generateClient(NAMESPACES, "1.0.0")));
});

Deno.test("a namespace still starting is typed loosely, says so, and its client is another one once listed", async () => {
  const hang: NamespaceEntry = {
    namespace: "hang",
    server: "hang-server",
    description: "",
    tools: [],
    starting: true,
  };
  const text = await generateClient([...NAMESPACES, hang], "9.9.9");
  assert.match(text, /still starting when this client was made/, "the declaration says why");
  assert.match(text, /const hang: hang_Tools & hang_Tools_Starting = namespaceObject\("hang"/);
  assert.match(text, /\(tool\) => \(args, options\) => callTool\("hang-server", "hang", tool,/);
  const listed = await generateClient([...NAMESPACES, { ...hang, starting: undefined }], "9.9.9");
  const first = (t: string) => t.slice(0, t.indexOf("\n"));
  assert.notEqual(first(text), first(listed));
  await assertScriptTypeChecks({
    "mcpx-client.ts": text,
    "mcpx-globals.d.ts": generateGlobals([...NAMESPACES, hang].map((n) => n.namespace)),
    "script.ts": '/// <reference path="./mcpx-globals.d.ts" />\n' +
      'await hang.echo({ message: "x" });\nawait hang["get-sum"]();\n' +
      "await hang.$prompts.list();\n",
  });
});

Deno.test("a namespace without tools throws a NamespaceError saying why on any use", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const empty: NamespaceEntry[] = [
      {
        namespace: "memory",
        server: "memory",
        description: "",
        tools: [],
        error: "spawn npx ENOENT: not found\n  at spawn",
      },
      { namespace: "quiet", server: "quiet", description: "", tools: [] },
      { namespace: "hidden", server: "hid", description: "", tools: [], excluded: ["a", "b"] },
    ];
    const text = await generateClient([...NAMESPACES, ...empty], "9.9.9");
    await Deno.writeTextFile(`${dir}/mcpx-client.ts`, text);
    await assertTypeChecks(`${dir}/mcpx-client.ts`);
    const client = await import(`file://${dir}/mcpx-client.ts`);
    const tools = client.default;
    const expected = [
      [
        "memory",
        "listing-failed",
        /^memory\.create_entities: namespace memory has no tools: its server failed to start \(spawn npx ENOENT: not found\); `mcpx status` shows why/,
      ],
      ["quiet", "no-tools", /namespace quiet has no tools: its server lists none/],
      ["hidden", "all-hidden", /hides all 2 .*mcpServers\.hid\.mcpx\.tools/],
    ] as const;
    for (const [ns, code, message] of expected) {
      assert.throws(
        () => tools[ns].create_entities({}),
        (e: any) =>
          e instanceof client.NamespaceError && e.code === code && e.namespace === ns &&
          e.member === "create_entities" && message.test(e.message),
      );
    }
    // What runtimes and libraries probe reads as on an empty object.
    assert.equal(await Promise.resolve(tools.memory), tools.memory, "await does not throw");
    assert.equal(JSON.stringify(tools.memory), "{}");
    assert.equal(String(tools.memory), "[object Object]");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an object type tools repeat is declared once per namespace, and namespaces never clash", async () => {
  const entity = {
    type: "object",
    properties: { name: { type: "string" }, kind: { type: "string" } },
    required: ["name", "kind"],
  };
  const graphTool = (ns: string, fn: string, item: unknown) =>
    toolEntry(ns, fn, "", {
      inputSchema: {
        type: "object",
        properties: { entities: { type: "array", items: item } },
        required: ["entities"],
      },
      outputSchema: {
        type: "object",
        properties: { entities: { type: "array", items: item } },
        required: ["entities"],
      },
    });
  // Both namespaces name their repeated object `Entity`, with different shapes.
  const other = {
    type: "object",
    properties: {
      id: { type: "number" },
      label: { type: "string" },
      weight: { type: "number" },
      color: { type: "string" },
    },
    required: ["id", "label", "weight", "color"],
  };
  const namespaces: NamespaceEntry[] = [
    {
      namespace: "a",
      server: "a",
      description: "",
      tools: [graphTool("a", "add", entity), graphTool("a", "remove", entity)],
    },
    { namespace: "b", server: "b", description: "", tools: [graphTool("b", "add", other)] },
  ];
  const text = await generateClient(namespaces, "9.9.9");
  assert.equal(text.match(/^interface a__Entity \{/gm)?.length, 1, "declared once");
  assert.match(text, /^interface b__Entity \{/m);
  assert.match(text, /remove\(args: \{ entities: a__Entity\[\] \}/);
  await assertScriptTypeChecks({
    "mcpx-client.ts": text,
    "script.ts": 'import tools from "./mcpx-client.ts";\n' +
      'const r = await tools.a.add({ entities: [{ name: "n", kind: "k" }] });\n' +
      "const n: string = r.entities[0].name;\n" +
      "const b = await tools.b.add({ entities: [{ id: 1, label: 'l', weight: 2, color: 'c' }] });\n" +
      "const id: number = b.entities[0].id;\n" +
      "console.log(n, id);\n",
  });
});

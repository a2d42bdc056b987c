import assert from "node:assert/strict";
import { main } from "./main.ts";
import type { Io } from "../core/io.ts";

Deno.test("mcpx adapter check exits 1 for a name a configured server has and for colliding tools", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-adapter-" }));
  try {
    await Deno.mkdir(`${root}/proj`);
    await Deno.writeTextFile(
      `${root}/proj/adapters.json`,
      JSON.stringify({
        adapters: [
          { name: "files", command: "ls", tools: [{ name: "list" }] },
          { name: "lsx", command: "ls", tools: [{ name: "get-x" }, { name: "get_x" }] },
          { name: "good", command: "ls", tools: [{ name: "list" }] },
        ],
      }),
    );
    await Deno.writeTextFile(
      `${root}/proj/.mcp.json`,
      JSON.stringify({
        mcpServers: { files: { command: "ls" } },
        paths: { adapters: ["./adapters.json"] },
      }),
    );
    let out = "";
    let err = "";
    const io: Io = {
      out: (text) => void (out += text),
      err: (text) => void (err += text),
      readStdin: () => Promise.resolve(""),
    };
    const env = {
      HOME: root,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always",
    };
    const code = await main(["adapter", "check", "--json"], io, env, `${root}/proj`);
    assert.equal(code, 1, out + err);
    const rows = (JSON.parse(out) as { adapters: { name: string; problem?: string }[] }).adapters;
    const problem = (name: string) => rows.find((r) => r.name === name)?.problem ?? "";
    assert.match(
      problem("files"),
      /adapter "files" takes the name of the configured server "files"/,
    );
    assert.match(problem("lsx"), /tools "get-x" and "get_x" both become "get_x"/);
    assert.equal(problem("good"), "");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

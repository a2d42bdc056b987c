import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../../core/io.ts";

Deno.test("mcpx tui and --tui refuse output that is not the process's terminal, in one error line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { HOME: dir, PATH: Deno.env.get("PATH") ?? "" };
    for (const argv of [["tui"], ["--tui"], ["tui", "log"]]) {
      const io = memoryIo();
      assert.equal(await main(argv, io, env, dir), 2, argv.join(" "));
      assert.match(io.stderr, /error: mcpx tui draws on a terminal/);
      assert.equal(io.stdout, "");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--tui with another command is a usage error naming both", async () => {
  const io = memoryIo();
  assert.equal(await main(["ls", "--tui"], io, { HOME: "/nonexistent" }, "/"), 2);
  assert.match(
    io.stderr,
    /--tui opens the browser and takes no command; run `mcpx tui` or `mcpx ls`/,
  );
});

Deno.test("mcpx tui with an unknown view names the six", async () => {
  const io = memoryIo();
  assert.equal(await main(["tui", "logs"], io, { HOME: "/nonexistent" }, "/"), 2);
  assert.match(io.stderr, /tools.*log.*stats.*servers.*sessions.*storage/);
});

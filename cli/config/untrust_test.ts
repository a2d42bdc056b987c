import assert from "node:assert/strict";
import { trustProject } from "./_trust_project.ts";
import * as trustCommand from "./trust.ts";
import * as untrustCommand from "./untrust.ts";
import { runHandler } from "../outcome_render.ts";
import { NotFoundError } from "../../core/errors.ts";

Deno.test("untrust handle() removes the record, then refuses a file not trusted", async () => {
  await using p = await trustProject();
  await trustCommand.handle(p.ctx, {});
  assert.equal(await runHandler(p.ctx, untrustCommand, {}, true), 0);
  assert.equal(
    p.io.stdout,
    JSON.stringify({ file: p.file, realPath: p.file, removed: true }, null, 2) + "\n",
  );
  await assert.rejects(
    untrustCommand.handle(p.ctx, {}),
    (e: unknown) => e instanceof NotFoundError,
  );
  assert.equal(
    untrustCommand.text({ file: "/p/.mcp.json", realPath: "/p/.mcp.json", removed: true }),
    "untrusted /p/.mcp.json: mcpx starts none of its servers and refuses calls to them until it " +
      "is trusted again; running ones stop when idle, or now with `mcpx stop`.\n",
  );
});

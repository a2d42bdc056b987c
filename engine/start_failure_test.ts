import assert from "node:assert/strict";
import { startFailureMessage } from "./start_failure.ts";
import type { ServerSpec } from "../config/types.ts";

Deno.test("startFailureMessage() leads with a declared namespace's own error line, not only its exit code", () => {
  const spec = {
    name: "petstore",
    transport: "stdio",
    command: "deno",
    derived: { kind: "apis", file: "/p/apis.json" },
  } as unknown as ServerSpec;
  const stderr = "\x1b[0m\x1b[32mDownload\x1b[0m https://registry.npmjs.org/ajv\n" +
    'error: config /p/apis.json: apis[0].auth.value: ${PET_KEY} is not set (API "petstore"); ' +
    "export PET_KEY before running mcpx\n";
  const message = startFailureMessage(
    spec,
    new Error("exited with code 1 before answering initialize"),
    stderr,
  );
  assert.match(
    message.split("\n")[0],
    /^server "petstore": config \/p\/apis\.json: .*\$\{PET_KEY\} is not set .*export PET_KEY.* \(it exited with code 1 before answering initialize\)$/,
  );
  // A configured server's stderr is its own affair: the exit leads, the tail follows.
  const { derived: _, ...configured } = spec;
  assert.match(
    startFailureMessage(
      configured as ServerSpec,
      new Error("exited with code 1 before answering initialize"),
      stderr,
    ),
    /^server "petstore": exited with code 1 before answering initialize\nstderr tail:/,
  );
});

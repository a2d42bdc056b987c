import assert from "node:assert/strict";
import { argHelp, flagHelp } from "./cli_help.ts";

const fields = {
  timeout: { description: "give up after this long (default the server's callTimeout)" },
  wait: { description: "wait for servers still starting" },
  header: { description: "headers to send, each `Name: value`" },
  arguments: { description: "the tool's arguments, a JSON object" },
};

Deno.test("flagHelp() adds the command line's hints to the field's description", () => {
  assert.equal(
    flagHelp("tasks", "timeout", { field: "timeout", type: "string", syntax: "duration" }, fields),
    "give up after this long (default the server's callTimeout; e.g. 30s, 2m)",
  );
  assert.equal(
    flagHelp("ls", "wait", {
      field: "wait",
      type: "string",
      syntax: "duration",
      bare: "firstStartTimeout",
    }, fields),
    "wait for servers still starting (e.g. --wait=30s; --wait alone: firstStartTimeout)",
  );
  assert.equal(
    flagHelp("ls", "header", { field: "header", type: "string", multiple: true }, fields),
    "headers to send, each `Name: value` (repeatable)",
  );
});

Deno.test("flagHelp() gives a setting-only flag its setting's help and default", () => {
  assert.equal(
    flagHelp("search", "limit", { type: "string", short: "n", setting: "search.limit" }, {}),
    "most results `mcpx search` prints (default 20)",
  );
});

Deno.test("flagHelp() refuses a flag with a field and help of its own, or an undescribed field", () => {
  assert.throws(
    () => flagHelp("ls", "wait", { field: "wait", type: "string", help: "again" }, fields),
    /drop its own/,
  );
  assert.throws(
    () => flagHelp("ls", "x", { field: "x", type: "string" }, fields),
    /has no description/,
  );
});

Deno.test("argHelp() is the field's description with its syntax's hint", () => {
  assert.equal(
    argHelp("call <json>", { field: "arguments", name: "json", syntax: "json-or-file" }, fields),
    "the tool's arguments, a JSON object (@file reads a file, - reads stdin)",
  );
});

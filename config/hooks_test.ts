import assert from "node:assert/strict";
import { hookDeclarations } from "./hooks.ts";
import { parseConfig } from "./parse.ts";
import { resolveSettings } from "./resolve_settings.ts";
import { projectSettingNames } from "./trust.ts";
import { ConfigError } from "../core/errors.ts";

const FILE = "/p/.mcp.json";
const SERVERS = `"mcpServers": { "chrome-devtools": { "command": "x" }, "fs": { "command": "y" } }`;

/** The message parseConfig() throws for a file whose `hooks.observe` is `observe`. */
function refusal(observe: string): string {
  try {
    parseConfig(`{ ${SERVERS}, "hooks": { "observe": ${observe} } }`, FILE, {});
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail(`accepted: ${observe}`);
}

Deno.test("hookDeclarations() reads kinds, families, a shell or argv command, servers and a timeout", () => {
  const { servers } = parseConfig(`{ ${SERVERS} }`, FILE, {});
  const hooks = hookDeclarations(
    {
      hooks: {
        timeout: "3s",
        observe: {
          "crash-alert": {
            on: ["server.crashed", "call"],
            command: "echo hi",
            servers: ["chrome-devtools"],
            timeout: "2s",
          },
          log: { on: "server", command: ["/bin/logger", "-t", "mcpx"] },
        },
      },
    },
    FILE,
    servers,
  );
  assert.deepEqual(hooks, [
    {
      name: "crash-alert",
      on: ["server.crashed", "call"],
      command: "echo hi",
      // A server is matched by its name or its namespace, whichever an event carries.
      servers: ["chrome-devtools", "chrome_devtools"],
      timeoutMs: 2000,
    },
    { name: "log", on: ["server"], command: ["/bin/logger", "-t", "mcpx"] },
  ]);
});

Deno.test("parseConfig() refuses a bad hook naming the file, the hook, the value and the fix", () => {
  const cases: [string, string, RegExp[]][] = [
    [
      "an unknown kind, with the nearest",
      `{ "a": { "on": ["server.crashd"], "command": "x" } }`,
      [
        /\/p\/\.mcp\.json/,
        /hooks\.observe\.a\.on\[0\]/,
        /hook "a"/,
        /"server\.crashd"/,
        /did you mean `server\.crashed`/,
      ],
    ],
    [
      "no on",
      `{ "a": { "command": "x" } }`,
      [/hook "a" needs "on"/, /\["server\.crashed"\]/],
    ],
    [
      "gap, a reader's kind",
      `{ "a": { "on": "gap", "command": "x" } }`,
      [/unknown event kind "gap"/],
    ],
    [
      "an empty command",
      `{ "a": { "on": "server", "command": "  " } }`,
      [/hooks\.observe\.a\.command/, /non-empty string/, /got " {2}"/],
    ],
    [
      "a command list that is not strings",
      `{ "a": { "on": "server", "command": ["x", 3] } }`,
      [/list of strings/, /got \["x",3\]/],
    ],
    [
      "an unknown server, with the nearest",
      `{ "a": { "on": "server", "command": "x", "servers": ["chrome-devtool"] } }`,
      [
        /no server is named "chrome-devtool"/,
        /did you mean `chrome-devtools`/,
        /\(servers: chrome-devtools, fs\)/,
      ],
    ],
    [
      "a timeout that is not a duration",
      `{ "a": { "on": "server", "command": "x", "timeout": "ten" } }`,
      [/hooks\.observe\.a\.timeout/, /got "ten"/],
    ],
    [
      "a zero timeout",
      `{ "a": { "on": "server", "command": "x", "timeout": 0 } }`,
      [/above 0/, /got 0/],
    ],
    [
      "an unknown key, with the nearest",
      `{ "a": { "on": "server", "command": "x", "comand": "y" } }`,
      [/hooks\.observe\.a\.comand/, /unknown key/, /did you mean `command`/],
    ],
    [
      "a hook that is not an object",
      `{ "a": "echo" }`,
      [/hook "a" must be an object, got "echo"/],
    ],
    [
      "a name that is not a name",
      `{ "a b": { "on": "server", "command": "x" } }`,
      [/hook "a b": a hook's name/],
    ],
    [
      "observe that is not an object",
      `["a"]`,
      [/hooks\.observe: must be an object of hook name to hook/],
    ],
  ];
  for (const [what, observe, patterns] of cases) {
    const message = refusal(observe);
    for (const pattern of patterns) assert.match(message, pattern, `${what}: ${message}`);
  }
});

Deno.test("parseConfig() lists every bad hook at once", () => {
  const message = refusal(
    `{ "a": { "on": "nope", "command": "x" }, "b": { "on": "server" } }`,
  );
  assert.match(message, /2 problems/);
  assert.match(message, /hook "a"/);
  assert.match(message, /hook "b" needs "command"/);
});

Deno.test("settings: hooks.observe is not an unknown setting, and is one of a project's settings", () => {
  const document = { hooks: { concurrency: 2, observe: { a: { on: "server", command: "x" } } } };
  const settings = resolveSettings({ layers: [{ file: FILE, document }], env: {} });
  assert.equal(settings.values["hooks.concurrency"].value, 2);
  assert.equal(settings.values["hooks.timeout"].value, 10_000);
  assert.deepEqual(settings.warnings, []);
  // What `mcpx trust` records and an untrusted project's warning names (config/trust.ts).
  assert.deepEqual(projectSettingNames(document), ["hooks.concurrency", "hooks.observe"]);
});

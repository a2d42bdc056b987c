import assert from "node:assert/strict";
import { systemdUnit } from "./service_unit.ts";
import { MARKER, type ServicePlan } from "./service_plan.ts";

const PLAN: ServicePlan = {
  platform: "linux",
  name: "mcpx-proj-0a1b2c3d.service",
  file: "/h/.config/systemd/user/mcpx-proj-0a1b2c3d.service",
  configPath: "/p/.mcp.json",
  program: ["/bin/deno", "run", "-A", "/m/cli/mcpx.bundle.js", "daemon"],
  workingDirectory: "/p",
  environment: { HOME: "/h", PATH: "/usr/bin:/bin" },
};

/** The value of every `key=` line of the unit, in order. */
function values(text: string, key: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(`${key}=`)).map((l) =>
    l.slice(key.length + 1)
  );
}

Deno.test("systemdUnit() runs the foreground daemon, restarted on failure only, wanted at login", () => {
  const text = systemdUnit(PLAN);
  assert.equal(text.split("\n")[0], `# ${MARKER}`);
  assert.deepEqual(values(text, "ExecStart"), ["/bin/deno run -A /m/cli/mcpx.bundle.js daemon"]);
  assert.deepEqual(values(text, "Restart"), ["on-failure"]);
  assert.deepEqual(values(text, "WantedBy"), ["default.target"]);
  assert.deepEqual(values(text, "KillMode"), ["mixed"]);
  assert.deepEqual(values(text, "WorkingDirectory"), ["/p"]);
  assert.deepEqual(values(text, "Environment"), ["HOME=/h", "PATH=/usr/bin:/bin"]);
  assert.deepEqual(values(text, "Description"), ["mcpx daemon for /p/.mcp.json"]);
});

Deno.test("systemdUnit() quotes words with spaces and escapes %, $, quotes and newlines", () => {
  const text = systemdUnit({
    ...PLAN,
    configPath: "/p/100%\nx.json",
    program: ["/my deno/deno", "a$b", 'say "hi"', "back\\slash", "50%"],
    workingDirectory: "/w%d",
    environment: { PATH: "/a b:/c" },
  });
  assert.deepEqual(values(text, "ExecStart"), [
    `"/my deno/deno" a$$b "say \\"hi\\"" "back\\\\slash" 50%%`,
  ]);
  assert.deepEqual(values(text, "Environment"), [`"PATH=/a b:/c"`]);
  assert.deepEqual(values(text, "WorkingDirectory"), ["/w%%d"]);
  assert.deepEqual(values(text, "Description"), ["mcpx daemon for /p/100%% x.json"]);
});

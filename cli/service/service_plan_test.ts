import assert from "node:assert/strict";
import { type PlanInput, servicePlan } from "./service_plan.ts";

const INPUT: PlanInput = {
  platform: "linux",
  configPath: "/work/My Project/.mcpx/config.json",
  realPath: "/work/My Project/.mcpx/config.json",
  origin: "named",
  cwd: "/work/My Project",
  env: { HOME: "/h", PATH: "/bin", SECRET: "x", XDG_STATE_HOME: "/s" },
  deno: "/bin/deno",
  root: "/m",
};

Deno.test("servicePlan() names the service by the configuration's folder and real path", async () => {
  const linux = await servicePlan(INPUT);
  assert.match(linux.name, /^mcpx-my-project-[0-9a-f]{8}\.service$/);
  assert.equal(linux.file, `/h/.config/systemd/user/${linux.name}`);
  const again = await servicePlan({ ...INPUT, configPath: "/elsewhere/link.json" });
  assert.equal(again.name.slice(-17), linux.name.slice(-17), "the id hashes the real path");
  const other = await servicePlan({ ...INPUT, realPath: "/other/.mcp.json" });
  assert.notEqual(other.name, linux.name);
  const mac = await servicePlan({ ...INPUT, platform: "macos" });
  assert.match(mac.name, /^dev\.mcpx\.my-project-[0-9a-f]{8}$/);
  assert.equal(mac.file, `/h/Library/LaunchAgents/${mac.name}.plist`);
  assert.equal(mac.logFile, `/h/Library/Logs/mcpx/${mac.name}.log`);
});

Deno.test("servicePlan() honours XDG_CONFIG_HOME for the unit's folder", async () => {
  const plan = await servicePlan({ ...INPUT, env: { ...INPUT.env, XDG_CONFIG_HOME: "/x" } });
  assert.equal(plan.file, `/x/systemd/user/${plan.name}`);
});

Deno.test("servicePlan() names a file with --config, but lets the daemon find a project's", async () => {
  const named = await servicePlan(INPUT);
  assert.deepEqual(named.program, [
    "/bin/deno",
    "run",
    "-A",
    "--config",
    "/m/deno.json",
    "/m/cli/mcpx.bundle.js",
    "--config",
    INPUT.configPath,
    "daemon",
  ]);
  const project = await servicePlan({ ...INPUT, origin: "project" });
  assert.deepEqual(project.program.slice(-2), ["/m/cli/mcpx.bundle.js", "daemon"]);
  assert.equal(project.workingDirectory, INPUT.cwd);
});

Deno.test("servicePlan() carries PATH, HOME and where state lives, never other variables", async () => {
  const plan = await servicePlan(INPUT);
  assert.deepEqual(plan.environment, { PATH: "/bin", HOME: "/h", XDG_STATE_HOME: "/s" });
});

Deno.test("servicePlan() refuses an unset or relative HOME, naming it", async () => {
  await assert.rejects(servicePlan({ ...INPUT, env: {} }), /HOME is unset/);
  await assert.rejects(
    servicePlan({ ...INPUT, env: { HOME: "h" } }),
    /HOME is "h", not an absolute/,
  );
});

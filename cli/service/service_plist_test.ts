import assert from "node:assert/strict";
import { parse } from "plist";
import { launchdPlist } from "./service_plist.ts";
import { MARKER, type ServicePlan } from "./service_plan.ts";

const PLAN: ServicePlan = {
  platform: "macos",
  name: "dev.mcpx.proj-0a1b2c3d",
  file: "/h/Library/LaunchAgents/dev.mcpx.proj-0a1b2c3d.plist",
  configPath: "/p/a--b/.mcp.json",
  program: ["/bin/deno", "run", "-A", "/m/<x>&'y'/cli/mcpx.bundle.js", "daemon"],
  workingDirectory: "/p",
  environment: { HOME: "/h", PATH: "/usr/bin:/bin" },
  logFile: "/h/Library/Logs/mcpx/dev.mcpx.proj-0a1b2c3d.log",
};

Deno.test("launchdPlist() parses to the agent launchd loads at login, kept alive on failure only", () => {
  const text = launchdPlist(PLAN);
  assert.ok(text.includes(`<!-- ${MARKER} -->`));
  const doc = parse(text) as Record<string, unknown>;
  assert.deepEqual(doc, {
    Label: PLAN.name,
    ProgramArguments: PLAN.program,
    WorkingDirectory: "/p",
    EnvironmentVariables: { HOME: "/h", PATH: "/usr/bin:/bin" },
    RunAtLoad: true,
    KeepAlive: { SuccessfulExit: false },
    ExitTimeOut: 30,
    StandardOutPath: PLAN.logFile,
    StandardErrorPath: PLAN.logFile,
  });
});

Deno.test("launchdPlist() keeps `--` out of its comments and parses with no environment", () => {
  const text = launchdPlist({ ...PLAN, environment: {} });
  for (const comment of text.matchAll(/<!--(.*?)-->/gs)) assert.ok(!comment[1].includes("--"));
  assert.deepEqual((parse(text) as Record<string, unknown>).EnvironmentVariables, {});
});

/**
 * `mcpx service` against the real tools that read its files: the unit
 * `install --platform linux` writes is checked by systemd's own
 * `systemd-analyze --user verify` (its syntax, and that ExecStart's program
 * exists and is executable), the property list `--platform macos` writes is
 * parsed by a real plist parser with `Label`, `ProgramArguments` and
 * `RunAtLoad` required; `status` before and after `install` and `uninstall`,
 * and a file mcpx did not write is refused by both.
 *
 * `systemd-analyze` comes with Debian's `systemd` (`.ci/run` installs it);
 * only where it is absent are the verify steps skipped, saying so.
 */
import assert from "node:assert/strict";
import { parse } from "plist";
import { world } from "./_helpers.ts";
import { servicePlan } from "../cli/service/service_plan.ts";
import { systemdUnit } from "../cli/service/service_unit.ts";

const CONFIG = { mcpServers: { x: { command: "true" } } };

/** Runs `systemd-analyze --user verify <file>` in a private runtime directory. */
async function verifyUnit(file: string, dir: string): Promise<{ code: number; output: string }> {
  const runtime = await Deno.makeTempDir({ dir, prefix: "run-" });
  await Deno.chmod(runtime, 0o700);
  const out = await new Deno.Command("systemd-analyze", {
    args: ["--user", "verify", file],
    env: { HOME: dir, XDG_RUNTIME_DIR: runtime, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, output: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
}

/** Whether systemd-analyze is installed; the verify steps are skipped, saying why, when not. */
async function hasSystemdAnalyze(): Promise<boolean> {
  try {
    await new Deno.Command("systemd-analyze", { args: ["--version"], stdout: "null" }).output();
    return true;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    console.warn(
      "skipping systemd-analyze verify: systemd-analyze is not installed " +
        "(apt-get install systemd; .ci/run installs it)",
    );
    return false;
  }
}

const noSystemd = !(await hasSystemdAnalyze());

Deno.test("mcpx service: install, status and uninstall a systemd unit and a launchd agent", async (t) => {
  await using w = await world();
  const configPath = await w.writeConfig(CONFIG);

  await t.step("status before install: absent", async () => {
    const status = await w.json(["service", "status", "--platform", "linux"]);
    assert.equal(status.installed, "absent");
    assert.equal(status.configPath, configPath);
    assert.match(status.name, /^mcpx-mcpx-test-[a-z0-9-]*[0-9a-f]{8}\.service$/);
  });

  let unit = "";
  await t.step(
    "install --platform linux writes a unit systemd-analyze verify accepts",
    async () => {
      const installed = await w.json(["service", "install", "--platform", "linux"]);
      assert.equal(installed.wrote, true);
      unit = installed.file;
      assert.equal(unit, `${w.dir}/.config/systemd/user/${installed.name}`);
      const text = await Deno.readTextFile(unit);
      const execStart = text.split("\n").find((l) => l.startsWith("ExecStart="))!;
      assert.ok(execStart.startsWith(`ExecStart=${Deno.execPath()} run -A `), execStart);
      assert.ok(execStart.endsWith(" daemon"), execStart);
      assert.deepEqual(installed.commands.enable, [
        "systemctl --user daemon-reload",
        `systemctl --user enable --now ${installed.name}`,
      ]);
      assert.equal(installed.commands.log, `journalctl --user -u ${installed.name} -f`);
      if (noSystemd) return;
      const verified = await verifyUnit(unit, w.dir);
      assert.equal(verified.code, 0, verified.output);
    },
  );

  await t.step("the human rendering names the file and the commands to run next", async () => {
    const { code, stdout } = await w.mcpx(["service", "install", "--platform", "linux"]);
    assert.equal(code, 0);
    assert.match(stdout, /^wrote \/.*\.service \(the daemon of /);
    assert.match(stdout, /enable and start it: +systemctl --user daemon-reload && systemctl/);
    assert.match(stdout, /read its log: +journalctl --user -u mcpx-/);
  });

  await t.step("status after install: current; edited: stale", async () => {
    const status = await w.json(["service", "status", "--platform", "linux"]);
    assert.equal(status.installed, "current");
    assert.equal(typeof status.enabled, "string");
    assert.equal(typeof status.running, "string");
    await Deno.writeTextFile(unit, "# an edit\n", { append: true });
    assert.equal((await w.json(["service", "status", "--platform", "linux"])).installed, "stale");
  });

  await t.step(
    "install --platform macos writes a plist with Label, ProgramArguments, RunAtLoad",
    async () => {
      const installed = await w.json(["service", "install", "--platform", "macos"]);
      assert.equal(installed.file, `${w.dir}/Library/LaunchAgents/${installed.name}.plist`);
      const doc = parse(await Deno.readTextFile(installed.file)) as Record<string, unknown>;
      assert.equal(doc.Label, installed.name);
      assert.ok(Array.isArray(doc.ProgramArguments));
      const args = doc.ProgramArguments as string[];
      assert.equal(args[0], Deno.execPath());
      assert.equal(args.at(-1), "daemon");
      assert.equal(doc.RunAtLoad, true);
      assert.deepEqual(doc.KeepAlive, { SuccessfulExit: false });
      const status = await w.json(["service", "status", "--platform", "macos"]);
      assert.equal(status.installed, "current");
    },
  );

  await t.step("install --dry-run prints the file and writes nothing", async () => {
    await Deno.remove(unit);
    const { code, stdout, stderr } = await w.mcpx([
      "service",
      "install",
      "--platform",
      "linux",
      "--dry-run",
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^# mcpx-service: /);
    assert.match(stderr, /would be written to .*\.service/);
    assert.equal((await w.json(["service", "status", "--platform", "linux"])).installed, "absent");
  });

  await t.step(
    "uninstall refuses a service the manager has enabled, and keeps its file",
    async () => {
      await w.json(["service", "install", "--platform", "linux"]);
      // A systemctl that says the unit is enabled and running.
      const bin = `${w.dir}/fake-systemctl`;
      await Deno.mkdir(bin, { recursive: true });
      await Deno.writeTextFile(
        `${bin}/systemctl`,
        '#!/bin/sh\ncase "$2" in is-enabled) echo enabled ;; is-active) echo active ;; esac\n',
        { mode: 0o755 },
      );
      const env = { PATH: `${bin}:${w.env.PATH ?? "/usr/bin:/bin"}` };
      const refused = await w.mcpx(["service", "uninstall", "--platform", "linux"], { env });
      assert.equal(refused.code, 1, refused.stdout);
      assert.match(
        refused.stderr,
        /is enabled\/active: disable it first \(systemctl --user disable/,
      );
      assert.equal(
        (await w.json(["service", "status", "--platform", "linux"])).installed,
        "current",
        "the file was removed before the unit was disabled",
      );
    },
  );

  await t.step(
    "uninstall removes the file and says how to disable it; status: absent",
    async () => {
      await w.json(["service", "install", "--platform", "linux"]);
      const { code, stdout } = await w.mcpx(["service", "uninstall", "--platform", "linux"]);
      assert.equal(code, 0);
      assert.match(stdout, /^removed .*\.service\n/);
      assert.match(stdout, /systemctl --user disable --now mcpx-/);
      assert.equal(
        (await w.json(["service", "status", "--platform", "linux"])).installed,
        "absent",
      );
      const again = await w.json(["service", "uninstall", "--platform", "linux"]);
      assert.equal(again.removed, false);
    },
  );

  await t.step(
    "a file mcpx did not write is refused by install and uninstall, and kept",
    async () => {
      await Deno.writeTextFile(unit, "[Service]\nExecStart=/bin/true\n");
      for (const action of ["install", "uninstall"]) {
        const { code, stderr } = await w.mcpx(["service", action, "--platform", "linux"]);
        assert.equal(code, 1, stderr);
        assert.ok(stderr.includes(`${unit} exists and was not written by`), stderr);
        assert.ok(!stderr.includes("    at "), stderr);
      }
      assert.equal(await Deno.readTextFile(unit), "[Service]\nExecStart=/bin/true\n");
      assert.equal(
        (await w.json(["service", "status", "--platform", "linux"])).installed,
        "foreign",
      );
    },
  );

  await t.step("usage errors: no action, an unknown one, --now for another machine", async () => {
    for (
      const [args, message] of [
        [["service"], /say what to do/],
        [["service", "start"], /unknown action "start"/],
        [["service", "install", "--platform", "macos", "--now"], /--now runs this machine's/],
        [["service", "status", "--dry-run"], /--dry-run is for/],
      ] as const
    ) {
      const { code, stderr } = await w.mcpx([...args]);
      assert.equal(code, 2, stderr);
      assert.match(stderr, message);
    }
  });
});

Deno.test({
  name: "systemdUnit() quoting holds for paths with spaces and % (systemd-analyze verify)",
  ignore: noSystemd,
  async fn() {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-unit-" }));
    try {
      // A Deno reached by a path systemd must read quoted and unescaped to find.
      await Deno.mkdir(`${dir}/my 100% deno`);
      const deno = `${dir}/my 100% deno/deno`;
      await Deno.symlink(Deno.execPath(), deno);
      const plan = await servicePlan({
        platform: "linux",
        configPath: `${dir}/a $HOME "b"/.mcp.json`,
        realPath: `${dir}/a $HOME "b"/.mcp.json`,
        origin: "named",
        cwd: dir,
        env: { HOME: dir, PATH: "/usr/bin:/bin" },
        deno,
      });
      const file = `${dir}/${plan.name}`;
      await Deno.writeTextFile(file, systemdUnit(plan));
      const verified = await verifyUnit(file, dir);
      assert.equal(verified.code, 0, verified.output);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/**
 * A project written for the other tool named mcpx (spec 002), as a user
 * meets it: its `mcp.jsonc` is found, its `allowedTools`/`disabledTools`
 * filter what a real server offers, `${VAR}` takes a value from the user
 * `.env` without the file reaching the server, and `mcpx doctor` reports the
 * running daemon and the listed cache, and names the server whose listing
 * failed (decision 0056).
 */

import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";

Deno.test("a spec 002 project works unchanged, and mcpx doctor sees it healthy", async (t) => {
  await using w = await world();
  const { command, args } = stdioServer("everything");
  // Spec 002's name, with a comment and a trailing comma, as that tool writes it.
  await w.writeConfig(
    `{
      "mcpServers": {
        "everything": {
          "command": ${JSON.stringify(command)},
          "args": ${JSON.stringify(args)},
          "env": { "DEMO_VALUE": "\${DEMO_FROM_DOTENV}" },
          // read_* style globs; the deny list wins
          "allowedTools": ["get-*", "echo"],
          "disabledTools": ["get-sum"],
          "lifecycle": { "mode": "keep-alive", "idleTimeoutMs": 600000 },
        },
        // Installed, but it exits before answering: only its listing shows the problem.
        "broken": { "command": "sh", "args": ["-c", "exit 3"] },
      },
    }`,
    "mcp.jsonc",
  );
  await Deno.mkdir(`${w.dir}/.config/mcpx`, { recursive: true });
  await Deno.writeTextFile(
    `${w.dir}/.config/mcpx/.env`,
    "DEMO_FROM_DOTENV=dotenv-value-42\nONLY_IN_DOTENV=never-exported\n",
  );

  await t.step("allowedTools and disabledTools decide what can be called", async () => {
    const echo = await w.mcpx(["call", "everything.echo", '{"message":"hi"}']);
    assert.equal(echo.code, 0, echo.stderr);
    const sum = await w.mcpx(["call", "everything.get-sum", '{"a":1,"b":2}']);
    assert.equal(sum.code, 1);
    assert.match(sum.stderr, /get-sum/);
  });

  await t.step(
    "${VAR} comes from the user .env; the file is not the server's environment",
    async () => {
      const env = await w.mcpx(["call", "everything.get-env", "{}"]);
      assert.equal(env.code, 0, env.stderr);
      // The server's own env entry took the file's value; nothing else of the file reached it.
      assert.match(env.stdout, /"DEMO_VALUE": "dotenv-value-42"/);
      assert.doesNotMatch(env.stdout, /ONLY_IN_DOTENV|never-exported/);
    },
  );

  await t.step(
    "mcpx doctor finds the file, the daemon, the cache and a failed listing",
    async () => {
      await w.mcpx(["ls"]);
      const r = await w.mcpx(["doctor", "--json"]);
      const report = JSON.parse(r.stdout) as {
        ok: boolean;
        findings: { check: string; status: string; message: string }[];
      };
      const of = (check: string, status: string) =>
        report.findings.filter((f) => f.check === check && f.status === status);
      assert.equal(r.code, 0, JSON.stringify(report.findings.filter((f) => f.status === "fail")));
      assert.match(of("config", "ok")[0].message, /mcp\.jsonc/);
      assert.match(of("config", "info")[0].message, /user \.env: 2 variable/);
      assert.match(of("daemon", "ok")[0].message, /daemon pid \d+/);
      assert.match(of("schema-cache", "ok")[0].message, /1 of 2 server/);
      const failed = of("schema-cache", "warn")[0] as {
        subject?: string;
        message: string;
        fix?: string;
      };
      assert.equal(failed.subject, "broken");
      assert.match(failed.fix!, /mcpx status/);
      assert.doesNotMatch(r.stdout, /dotenv-value-42/);
    },
  );
});

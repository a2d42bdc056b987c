/**
 * Configuration trouble on a fresh machine is reported where it is and by
 * what it is: one server's unset `${VAR}` makes that server's row `error`
 * while every other server works, and a command that needs a configuration
 * when there is none says so and where it looked (issue 8, "The first start
 * on a fresh machine").
 */

import assert from "node:assert/strict";
import { fixtureServer, STACK_LINE, world } from "./_helpers.ts";

const UNSET = "MCPX_TEST_SURELY_UNSET_TOKEN";

Deno.test("one server's unset ${VAR} leaves every other server working", async (t) => {
  await using w = await world();
  delete w.env[UNSET];
  await w.writeConfig({
    mcpServers: {
      fx: fixtureServer(),
      gh: fixtureServer({ env: { TOKEN: `\${${UNSET}}` } }),
    },
  });

  await t.step(
    "ls: the server's row is error naming the variable; the other is ready",
    async () => {
      const ls = await w.mcpx(["--json", "ls"]);
      assert.equal(ls.code, 0, ls.stderr);
      const rows = JSON.parse(ls.stdout).namespaces as {
        namespace: string;
        state: string;
        tools: number;
        error?: string;
      }[];
      const gh = rows.find((r) => r.namespace === "gh")!;
      const fx = rows.find((r) => r.namespace === "fx")!;
      assert.equal(fx.state, "ready", JSON.stringify(fx));
      assert.ok(fx.tools > 0);
      assert.equal(gh.state, "error", JSON.stringify(gh));
      assert.match(gh.error!, new RegExp(`\\$\\{${UNSET}\\} is not set`));
      assert.match(gh.error!, /mcpServers\.gh\.env\.TOKEN/);
      assert.match(gh.error!, new RegExp(`export ${UNSET}`));
    },
  );

  await t.step("the other server's tools are called as usual", async () => {
    const r = await w.mcpx(["call", "fx.echo", '{"text":"still here"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /still here/);
  });

  await t.step("a call to the server fails naming the variable, and starts nothing", async () => {
    const r = await w.mcpx(["call", "gh.echo", '{"text":"x"}']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^error: \\$\\{${UNSET}\\} is not set \\(server "gh"`));
    assert.doesNotMatch(r.stderr, STACK_LINE);
    const { servers } = await w.json<{ servers: Record<string, unknown>[] }>(["status"]);
    const gh = servers.find((s) => s.namespace === "gh")!;
    assert.equal(gh.state, "error");
    assert.deepEqual((gh.unavailable as { variables: string[] }).variables, [UNSET]);
    assert.deepEqual(gh.instances, []);
  });

  await t.step("types says why the namespace has no tools, not that listing failed", async () => {
    const r = await w.mcpx(["types", "gh"]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(`namespace "gh" has no tools: its server cannot start: \\$\\{${UNSET}\\}`),
    );
  });

  await t.step("refresh lists the other server and reports this one", async () => {
    const r = await w.mcpx(["--json", "refresh"]);
    assert.equal(r.code, 1);
    const { servers } = JSON.parse(r.stdout);
    assert.ok(servers.fx.tools > 0);
    assert.match(servers.gh.error, new RegExp(UNSET));
  });

  await t.step("once the variable is set, the server works", async () => {
    const r = await w.mcpx(["call", "gh.echo", '{"text":"now"}'], { env: { [UNSET]: "t0" } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /now/);
  });
});

Deno.test("a command that needs a configuration says none was found and where it looked", async (t) => {
  await using w = await world();
  const where = new RegExp(
    `no configuration file found \\(looked for \\.mcpx\\.json, \\.mcpx/config\\.json, ` +
      `\\.mcp\\.json, mcp\\.jsonc, mcp\\.json or \\.mcp\\.jsonc in ${w.dir} and every directory ` +
      `above it, then at ${w.dir}/\\.config/mcpx/\\{config\\.json,mcp\\.jsonc,mcp\\.json,` +
      `\\.mcp\\.jsonc,\\.mcp\\.json\\}(, .*)? and /etc/mcpx/config\\.json\\); create ` +
      `${w.dir}/\\.mcp\\.json`,
  );
  for (
    const args of [
      ["call", "fs.read_file", '{"path":"x"}'],
      ["types", "fs"],
      ["search", "read"],
    ]
  ) {
    await t.step(`mcpx ${args[0]} exits 1 with that, not "unknown namespace"`, async () => {
      const r = await w.mcpx(args);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, where);
      assert.doesNotMatch(r.stderr, /unknown namespace/);
      assert.doesNotMatch(r.stderr, STACK_LINE);
    });
  }
  await t.step("ls says it too, and exits 0 (there is simply nothing to list)", async () => {
    const r = await w.mcpx(["ls"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, where);
    assert.deepEqual(w.processes(), [], "no daemon was started");
  });
});

/**
 * The client the conformance suite's client leg runs (conformance/client_leg.ts):
 * `deno run -A conformance/client.ts <url>`, with `MCP_CONFORMANCE_SCENARIO`
 * naming the scenario (and `MCP_CONFORMANCE_CONTEXT` its data, when it has
 * some). Each scenario is exercised the way a user would, through `mcpx`
 * commands on a direct target (`mcpx ls <url>`, `mcpx call <url> <tool> …`;
 * decision 0033); nothing here speaks MCP itself.
 *
 * @module
 */

/** The `mcpx` a user runs: the bundle beside the sources. */
const MCPX = new URL("../cli/mcpx.bundle.js", import.meta.url).pathname;

/**
 * One `mcpx` command; its output is passed through for the runner's log.
 * `tty`: run it on a pseudo-terminal (util-linux `script`), standing in for
 * the person a question routed to a person needs (decision 0040).
 */
async function mcpx(args: string[], tty = false): Promise<{ code: number; stdout: string }> {
  const argv = [Deno.execPath(), "run", "-A", MCPX, ...args];
  const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const out = await new Deno.Command(tty ? "script" : argv[0], {
    args: tty ? ["-qec", quoted, "/dev/null"] : argv.slice(1),
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  console.log(`$ mcpx ${args.join(" ")} → exit ${out.code}\n${stdout}`);
  return { code: out.code, stdout };
}

/**
 * The client ID metadata document the suite's authorization servers expect
 * as the client id where they accept one (auth/basic-cimd), given as a user
 * gives the URL where mcpx's own document is published (setting
 * `oauth.clientMetadataUrl`); servers that do not accept one get a
 * dynamically registered client as before.
 */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** The calls a scenario needs beyond listing: `[tool, arguments]`. */
type Calls = [string, Record<string, unknown>][];

/** What each scenario's server waits for, beyond `mcpx ls` (initialize, tools/list). */
const SCENARIO_CALLS: Record<string, Calls> = {
  initialize: [],
  tools_call: [["add_numbers", { a: 5, b: 3 }]],
  "sse-retry": [["test_reconnection", {}]],
  "request-metadata": [],
  "sep-2322-client-request-state": [
    ["test_mrtr_echo_state", {}],
    ["test_mrtr_no_state", {}],
    ["test_mrtr_unrelated", {}],
    ["test_mrtr_no_result_type", {}],
  ],
  "http-standard-headers": [],
  "http-invalid-tool-headers": [["valid_tool", {}]],
  "json-schema-ref-no-deref": [],
  "elicitation-sep1034-client-defaults": [["test_client_elicitation_defaults", {}]],
};

/**
 * One tool call as an agent makes it: a call that exits 75 with a server's
 * question is answered through `mcpx elicit answer <id> --wait` with no
 * fields, so the requested schema's defaults fill the answer (SEP-1034).
 */
async function call(url: string, tool: string, args: Record<string, unknown>): Promise<number> {
  const first = await mcpx(["--json", "call", url, tool, JSON.stringify(args)]);
  if (first.code !== 75) return first.code;
  const { question } = JSON.parse(first.stdout) as { question: { id: string; route: string } };
  const answer = await mcpx(
    ["--json", "elicit", "answer", question.id, "--wait"],
    question.route === "person",
  );
  return answer.code;
}

async function main(): Promise<number> {
  const url = Deno.args.at(-1);
  const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
  if (!url) {
    console.error("usage: client.ts <server url> (with MCP_CONFORMANCE_SCENARIO set)");
    return 2;
  }
  const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}");
  if (scenario.startsWith("auth/")) return await authScenario(url, context);
  let failed = (await mcpx(["ls", url])).code !== 0;
  const calls: Calls = context.toolCalls
    ? context.toolCalls.map((
      c: { name: string; arguments?: Record<string, unknown> },
    ) => [c.name, c.arguments ?? {}])
    : SCENARIO_CALLS[scenario] ?? [];
  if (scenario === "json-schema-2020-12-preservation") {
    // Hand the server back the inputSchema mcpx kept for its tool, as listed.
    const schema = await listedSchema(url, "json_schema_2020_12_tool");
    calls.push(["json_schema_echo", { schema }]);
  }
  for (const [tool, args] of calls) {
    failed = (await call(url, tool, args)) !== 0 || failed;
  }
  // The scenario's server lives as long as this client: the target's daemon (which would
  // otherwise keep its connections open for its idle timeout) ends with it. The leg runs every
  // scenario in a state directory of its own, so --all stops only the leg's daemons.
  await mcpx(["stop", "--all"]);
  return failed ? 1 : 0;
}

/**
 * An `auth/*` scenario, with this script as the person and the browser:
 * `mcpx auth <url> --no-browser --json` (with a pre-registered client from
 * the scenario's context), the authorization URL fetched without following
 * its redirect, the code, state and iss of that redirect handed to
 * `mcpx auth <url> --code … --state … [--iss …]`; then the calls the server
 * waits for. A call that fails naming `mcpx auth` (the server asked for more
 * scope) is authorized again once, as a person following the hint would.
 */
async function authScenario(url: string, context: Record<string, unknown>): Promise<number> {
  const client = typeof context.client_id === "string"
    ? [
      "--client-id",
      context.client_id,
      ...(typeof context.client_secret === "string"
        ? ["--client-secret", context.client_secret]
        : []),
    ]
    : [];
  const authorize = async (): Promise<boolean> => {
    const started = await mcpx([
      "auth",
      url,
      "--no-browser",
      "--json",
      "--oauth-client-metadata-url",
      CLIENT_METADATA_URL,
      ...client,
    ]);
    if (started.code !== 0) return false;
    const { authorizationUrl } = JSON.parse(started.stdout);
    const answer = await fetch(authorizationUrl, { redirect: "manual" });
    await answer.body?.cancel();
    const location = answer.headers.get("location");
    if (!location) {
      console.log(`the authorization URL answered ${answer.status} without a redirect`);
      return false;
    }
    const back = new URL(location, authorizationUrl).searchParams;
    const iss = back.get("iss");
    const done = await mcpx([
      "auth",
      url,
      "--code",
      back.get("code") ?? "",
      "--state",
      back.get("state") ?? "",
      ...(iss !== null ? ["--iss", iss] : []),
    ]);
    return done.code === 0;
  };
  const work = async () =>
    (await mcpx(["ls", url])).code === 0 &&
    (await mcpx(["call", url, "test-tool", "{}"])).code === 0;
  // As a person meets it: the first command fails naming `mcpx auth` (and mcpx keeps the scope
  // the server's challenge asked for), the person authorizes, the commands work; a command that
  // fails again (a 403 asking for more scope) is authorized once more.
  let failed = false;
  if (!await work()) {
    failed = !(await authorize() && (await work() || (await authorize() && await work())));
  }
  await mcpx(["stop", "--all"]);
  return failed ? 1 : 0;
}

/** The inputSchema of `tool` as mcpx's schema cache holds it (`mcpx --json types`). */
async function listedSchema(url: string, tool: string): Promise<unknown> {
  const { stdout } = await mcpx(["--json", "types", url, tool]);
  try {
    const doc = JSON.parse(stdout);
    const found = JSON.stringify(doc).includes('"inputSchema"') ? findKey(doc, "inputSchema") : doc;
    return found ?? {};
  } catch {
    return {};
  }
}

function findKey(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  if (key in value) return (value as Record<string, unknown>)[key];
  for (const v of Object.values(value)) {
    const hit = findKey(v, key);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

if (import.meta.main) Deno.exit(await main());

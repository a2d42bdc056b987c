/**
 * The client the conformance suite's client leg runs (conformance/client_leg.ts):
 * `deno run -A conformance/client.ts <url>`, with `MCP_CONFORMANCE_SCENARIO`
 * naming the scenario (and `MCP_CONFORMANCE_CONTEXT` its data, when it has
 * some). Each scenario is exercised the way a user would, through `mcpx`
 * commands on a direct target under default settings: list the server
 * (`mcpx ls <url>`), read its tools (`mcpx --json types <url>`) and call
 * every one (`mcpx call <url> <tool> …`) with the arguments its schema
 * implies, answering a question with its defaults; then list its skills
 * (`mcpx --json skills <url>`, which asks nothing of a server without the
 * Skills extension) and load each one as a user does, verified against its
 * entry (`mcpx --json skills <url> <uri> --verify`; decision 0074). Nothing
 * here speaks MCP itself, and nothing depends on the scenario's name
 * (decision 0033).
 *
 * @module
 */

/** The `mcpx` a user runs: the bundle beside the sources. */
const MCPX = new URL("../cli/mcpx.bundle.js", import.meta.url).pathname;

/** What one `mcpx` command printed and how it ended. */
interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * One `mcpx` command; its output is passed through for the runner's log.
 * `tty`: run it on a pseudo-terminal (util-linux `script`), standing in for
 * the person a question routed to a person needs (decision 0040).
 */
async function mcpx(args: string[], tty = false): Promise<Ran> {
  const argv = [Deno.execPath(), "run", "-A", MCPX, ...args];
  const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const out = await new Deno.Command(tty ? "script" : argv[0], {
    args: tty ? ["-qec", quoted, "/dev/null"] : argv.slice(1),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  console.log(`$ mcpx ${args.join(" ")} → exit ${out.code}\n${stdout}`);
  if (stderr) console.error(stderr);
  return { code: out.code, stdout, stderr };
}

/**
 * Whether a failed call failed on the server's side, mcpx having done its
 * part: the tool's own error result (`isError`), or the server's error
 * answer or exit (`--json` error code `server`). A scenario server may list
 * tools it never meant to be called; the client is at fault only for the rest.
 */
function serverSaidNo(ran: Ran): boolean {
  try {
    const out = JSON.parse(ran.stdout) as { isError?: boolean; error?: { code?: string } };
    return out.isError === true || out.error?.code === "server";
  } catch {
    return false;
  }
}

/** Whether a failed command says to run `mcpx auth` (the server wants a login, or more scope). */
const wantsLogin = (ran: Ran) => ran.code !== 0 && /mcpx auth/.test(ran.stderr);

/** A tool as `mcpx --json types <url>` shows it: its real name and input schema. */
interface ListedTool {
  tool: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Arguments a user would give a tool knowing only its schema: for each
 * required property its default, else its first `enum` value or its `const`,
 * else a plain value of its type (`"test"`, `1`, `true`, `[]`, an object
 * built the same way).
 *
 * @example
 * ```ts
 * import { exampleArguments } from "./client.ts";
 * const args = exampleArguments({
 *   type: "object",
 *   properties: { a: { type: "number" }, b: { type: "string", default: "x" }, c: { type: "string" } },
 *   required: ["a", "b"],
 * });
 * if (JSON.stringify(args) !== '{"a":1,"b":"x"}') throw new Error(JSON.stringify(args));
 * ```
 */
export function exampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? schema.required as string[] : [];
  return Object.fromEntries(
    required.filter((name) => name in properties).map((name) => [name, valueFor(properties[name])]),
  );
}

function valueFor(schema: Record<string, unknown>): unknown {
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return exampleArguments(schema);
    case "null":
      return null;
    default:
      return "test";
  }
}

/** The tools `mcpx --json types <url>` shows (none when it fails): what a user reads before calling. */
async function listedTools(url: string): Promise<ListedTool[]> {
  const { code, stdout } = await mcpx(["--json", "types", url]);
  if (code !== 0) return [];
  try {
    const doc = JSON.parse(stdout) as { namespaces: { tools: ListedTool[] }[] };
    return doc.namespaces.flatMap((n) => n.tools);
  } catch {
    return [];
  }
}

/**
 * One tool call as an agent makes it: a call that exits 75 with a server's
 * question is answered through `mcpx elicit answer <id> --wait` with no
 * fields, so the requested schema's defaults fill the answer (SEP-1034).
 */
async function call(url: string, tool: string, args: Record<string, unknown>): Promise<Ran> {
  const first = await mcpx(["--json", "call", url, tool, JSON.stringify(args)]);
  if (first.code !== 75) return first;
  const { question } = JSON.parse(first.stdout) as { question: { id: string; route: string } };
  return await mcpx(
    ["--json", "elicit", "answer", question.id, "--wait"],
    question.route === "person",
  );
}

/**
 * The skills `mcpx --json skills <url>` lists (none when the server offers
 * none, or the command fails): the `uri` of every entry on every page.
 */
function listedSkills(ran: Ran): string[] {
  if (ran.code !== 0) return [];
  try {
    const doc = JSON.parse(ran.stdout) as { result: { pages: { skills?: { uri?: unknown }[] }[] } };
    return doc.result.pages.flatMap((p) => p.skills ?? [])
      .map((s) => s.uri)
      .filter((uri): uri is string => typeof uri === "string");
  } catch {
    return [];
  }
}

/**
 * Whether a skill command failed as a command: mcpx refusing a skill whose
 * `SKILL.md` does not match its entry (`verified: false`, exit 1) did its
 * part, and is not a failure of the client.
 */
function skillCommandFailed(ran: Ran): boolean {
  if (ran.code === 0) return false;
  try {
    return (JSON.parse(ran.stdout) as { verified?: unknown }).verified !== false;
  } catch {
    return true;
  }
}

/**
 * What a user does with a server's skills: list them, then load each one,
 * verified against the entry the server gave for it. A server without the
 * Skills extension lists none, and nothing more is asked of it.
 *
 * @returns Whether a command failed, and whether a failure asked for `mcpx auth`.
 */
async function skills(url: string): Promise<{ failed: boolean; login: boolean }> {
  const listed = await mcpx(["--json", "skills", url]);
  if (wantsLogin(listed)) return { failed: true, login: true };
  let failed = listed.code !== 0;
  for (const uri of listedSkills(listed)) {
    const loaded = await mcpx(["--json", "skills", url, uri, "--verify"]);
    if (wantsLogin(loaded)) return { failed: true, login: true };
    failed = skillCommandFailed(loaded) || failed;
  }
  return { failed, login: false };
}

/**
 * What a user does with a server: list it, read its tools, call each one,
 * then list its skills and load each one. The runner may say which
 * arguments a scenario's tools expect (its context's `toolCalls`);
 * otherwise they come from the schema.
 *
 * @returns Whether anything failed, and whether a failure asked for `mcpx auth`.
 */
async function work(
  url: string,
  context: Record<string, unknown>,
): Promise<{ failed: boolean; login: boolean }> {
  const ls = await mcpx(["ls", url]);
  if (ls.code !== 0) return { failed: true, login: wantsLogin(ls) };
  const given = new Map<string, Record<string, unknown>>(
    ((context.toolCalls ?? []) as { name: string; arguments?: Record<string, unknown> }[])
      .map((c) => [c.name, c.arguments ?? {}]),
  );
  const tools = await listedTools(url);
  let failed = false;
  for (const { tool, inputSchema } of tools) {
    let args = given.get(tool) ?? exampleArguments(inputSchema);
    if (tool === "json_schema_echo") {
      // This server checks the schema mcpx keeps for another tool, which a client can show
      // only by handing it back: the one listed for json_schema_2020_12_tool.
      const kept = tools.find((t) => t.tool === "json_schema_2020_12_tool");
      args = { ...args, schema: kept?.inputSchema ?? {} };
    }
    const ran = await call(url, tool, args);
    if (wantsLogin(ran)) return { failed: true, login: true };
    failed = (ran.code !== 0 && !serverSaidNo(ran)) || failed;
  }
  const loaded = await skills(url);
  return { failed: loaded.failed || failed, login: loaded.login };
}

async function main(): Promise<number> {
  const url = Deno.args.at(-1);
  if (!url) {
    console.error("usage: client.ts <server url> (with MCP_CONFORMANCE_SCENARIO set)");
    return 2;
  }
  const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}");
  // As a person meets a server that wants a login: a command fails naming `mcpx auth`, the
  // person authorizes and runs the commands again; a failure asking for more scope (a 403) is
  // authorized once more.
  let result = await work(url, context);
  for (let logins = 0; result.login && logins < 2; logins++) {
    if (!await authorize(url, context)) break;
    result = await work(url, context);
  }
  // The scenario's server lives as long as this client: the target's daemon (which would
  // otherwise keep its connections open for its idle timeout) ends with it. The leg runs every
  // scenario in a state directory of its own, so --all stops only the leg's daemons.
  await mcpx(["stop", "--all"]);
  return result.failed ? 1 : 0;
}

/**
 * `mcpx auth <url>` with this script as the person and the browser:
 * `--no-browser --json` (with a client the server's operator gave, when the
 * scenario's context names one: `--client-id`, `--client-secret`), the
 * authorization URL fetched without following its redirect, the code, state
 * and iss of that redirect handed to `mcpx auth <url> --code … --state …
 * [--iss …]`.
 *
 * @returns Whether the login completed.
 */
async function authorize(url: string, context: Record<string, unknown>): Promise<boolean> {
  const client = typeof context.client_id === "string"
    ? [
      "--client-id",
      context.client_id,
      ...(typeof context.client_secret === "string"
        ? ["--client-secret", context.client_secret]
        : []),
    ]
    : [];
  const started = await mcpx(["auth", url, "--no-browser", "--json", ...client]);
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
}

if (import.meta.main) Deno.exit(await main());

import assert from "node:assert/strict";
import {
  type GeneratorCommand,
  runGenerator,
  type TypeGenerationError,
  type TypeGenerationFailure,
  TypeGenerator,
} from "./type_generator.ts";
import { toolDeclaration } from "../discovery/typescript.ts";
import { GRAPH_SCHEMA } from "../discovery/_fixtures.ts";
import type { DeclarationRequest } from "../discovery/declarations_wire.ts";

/** A generator that runs `code` with `deno eval` instead of the real one. */
function evaluating(code: string): GeneratorCommand {
  return { command: Deno.execPath(), args: ["eval", code] };
}

/** Answers each request's `fn` as its declaration; appends a line to `starts` when it starts. */
function echoing(starts: string): GeneratorCommand {
  return evaluating(`
    await Deno.writeTextFile(${JSON.stringify(starts)}, "start\\n", { append: true });
    const input = JSON.parse(await new Response(Deno.stdin.readable).text());
    console.log(JSON.stringify({ declarations: input.tools.map((t) => t.fn) }));
  `);
}

const REQUESTS: DeclarationRequest[] = [
  {
    fn: "get_sum",
    tool: {
      name: "get-sum",
      description: "Adds two numbers.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number", default: 2 } },
        required: ["a"],
      },
      outputSchema: { type: "object", properties: { sum: { type: "number" } } },
    },
  },
  {
    fn: "create_entities",
    tool: { name: "create_entities", description: "Create entities.", inputSchema: GRAPH_SCHEMA },
  },
  {
    fn: "odd",
    tool: { name: "odd", inputSchema: { type: "object", properties: { x: { $ref: "#/nope" } } } },
  },
];

async function failure(promise: Promise<unknown>): Promise<TypeGenerationError> {
  return await promise.then(
    () => assert.fail("expected a TypeGenerationError"),
    (error) => {
      assert.equal(error.name, "TypeGenerationError", String(error));
      return error;
    },
  );
}

Deno.test("TypeGenerator.declare() answers, from its process, what toolDeclaration() answers in this one", async () => {
  await using generator = new TypeGenerator();
  const expected = await Promise.all(REQUESTS.map((r) => toolDeclaration(r.tool, r.fn)));
  assert.deepEqual(await generator.declare(REQUESTS), expected);
});

Deno.test("TypeGenerator.declare() starts no process for no tools", async () => {
  await using generator = new TypeGenerator({
    command: { command: "/nonexistent/deno", args: [] },
  });
  assert.deepEqual(await generator.declare([]), []);
});

const FAILURES: {
  name: string;
  command: GeneratorCommand;
  reason: TypeGenerationFailure;
  message: RegExp;
}[] = [
  {
    name: "exits with an error",
    command: evaluating(`console.error("error: the generator broke"); Deno.exit(3);`),
    reason: "crashed",
    message: /exited with code 3: error: the generator broke/,
  },
  {
    name: "throws",
    command: evaluating(`throw new Error("no schemas today");`),
    reason: "crashed",
    message: /exited with code 1: error: Uncaught .*no schemas today/,
  },
  {
    name: "prints something other than JSON",
    command: evaluating(`console.log("hello, world");`),
    reason: "garbage",
    message: /not declarations: it printed something other than JSON: "hello, world\\n"/,
  },
  {
    name: "answers fewer declarations than tools",
    command: evaluating(`console.log(JSON.stringify({ declarations: ["x"] }));`),
    reason: "garbage",
    message: /it answered 1 declarations for 3 tools/,
  },
  {
    name: "answers a declaration that is not text",
    command: evaluating(`console.log(JSON.stringify({ declarations: ["x", 42, null] }));`),
    reason: "garbage",
    message: /declaration 1 is "42", not text or null/,
  },
  {
    name: "cannot be started",
    command: { command: "/nonexistent/deno", args: [] },
    reason: "unavailable",
    message: /could not be started \(\/nonexistent\/deno\)/,
  },
];

for (const c of FAILURES) {
  Deno.test(`TypeGenerator.declare() rejects with "${c.reason}" when the process ${c.name}`, async () => {
    await using generator = new TypeGenerator({ command: c.command });
    const error = await failure(generator.declare(REQUESTS));
    assert.equal(error.reason, c.reason);
    assert.match(error.message, c.message);
  });
}

Deno.test("runGenerator() kills a process that does not answer within its time limit", async () => {
  const pidFile = await Deno.makeTempFile();
  try {
    const hangs = evaluating(
      `Deno.writeTextFileSync(${
        JSON.stringify(pidFile)
      }, String(Deno.pid)); setInterval(() => {}, 1000);`,
    );
    // Long enough for the process to start and write its pid on a busy machine.
    const error = await failure(runGenerator(REQUESTS, { command: hangs, timeoutMs: 5000 }));
    assert.equal(error.reason, "timeout");
    assert.match(error.message, /did not answer within 5000 ms and was stopped/);
    const pid = Number(await Deno.readTextFile(pidFile));
    assert.ok(pid > 0, "the process wrote its pid");
    assert.throws(() => Deno.kill(pid, "SIGCONT"), Deno.errors.NotFound, "it is gone");
  } finally {
    await Deno.remove(pidFile);
  }
});

Deno.test("TypeGenerator's dispose stops a running process and rejects its requests as stopped", async () => {
  const generator = new TypeGenerator({ command: evaluating(`setInterval(() => {}, 1000);`) });
  const pending = failure(generator.declare(REQUESTS));
  const queued = failure(generator.declare(REQUESTS.slice(0, 1)));
  await generator[Symbol.asyncDispose]();
  assert.equal((await pending).reason, "stopped");
  assert.equal((await queued).reason, "stopped");
  assert.equal((await failure(generator.declare(REQUESTS))).reason, "stopped");
});

Deno.test("TypeGenerator runs one process at a time and answers what waited with the next one", async () => {
  const starts = await Deno.makeTempFile();
  try {
    await using generator = new TypeGenerator({ command: echoing(starts) });
    const [a, b, c] = await Promise.all([
      generator.declare([REQUESTS[0]]),
      generator.declare([REQUESTS[1], REQUESTS[2]]),
      generator.declare([REQUESTS[2]]),
    ]);
    assert.deepEqual([a, b, c], [["get_sum"], ["create_entities", "odd"], ["odd"]]);
    assert.equal(await Deno.readTextFile(starts), "start\nstart\n", "the first, then one for both");
  } finally {
    await Deno.remove(starts);
  }
});

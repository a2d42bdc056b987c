import assert from "node:assert/strict";
import { memoryIo } from "../../core/io.ts";
import type { Io } from "../../core/io.ts";
import { InputError } from "../../core/errors.ts";
import { exploreLoop, type ExploreSeams, GREETING, PROMPT } from "./explore_loop.ts";

/** Seams whose lines are `lines` and whose commands print `ran <argv>` and record their argv. */
function seams(lines: (string | undefined)[], overrides: Partial<ExploreSeams> = {}) {
  const runs: string[][] = [];
  const queue = [...lines];
  const fake: ExploreSeams = {
    terminal: false,
    nextLine: () => Promise.resolve(queue.shift()),
    run(argv, io) {
      runs.push(argv);
      io.out(`ran ${argv.join(" ")}\n`);
      return Promise.resolve(0);
    },
    namespaces: () => Promise.resolve(["fs", "everything"]),
    ...overrides,
  };
  return { fake, runs };
}

Deno.test("exploreLoop() over a pipe runs each line's command and prints its footer, no prompt", async () => {
  const io = memoryIo();
  const { fake, runs } = seams(["ls", "fs", "", "chain", "tyeps", "chain cal-1", "quit", "ls"]);
  assert.equal(await exploreLoop(io, fake), 0);
  assert.deepEqual(runs, [["ls"], ["types", "fs"], ["log", "--chain"], [
    "log",
    "--chain",
    "cal-1",
  ]]);
  assert.equal(
    io.stdout,
    [
      "ran ls",
      "$ mcpx ls",
      "ran types fs",
      "$ mcpx types fs",
      "ran log --chain",
      "$ mcpx log --chain",
      "ran log --chain cal-1",
      "$ mcpx log --chain cal-1",
      "",
    ].join("\n"),
  );
  assert.equal(
    io.stderr,
    'unknown command or namespace "tyeps"; did you mean types? (`help` lists the commands, `ls` the namespaces)\n',
  );
  assert.ok(!io.stderr.includes(PROMPT) && !io.stdout.includes(PROMPT));
});

Deno.test("exploreLoop() ends at the end of input, and puts its global options before every command", async () => {
  const io = memoryIo();
  const { fake, runs } = seams(["everything"]);
  assert.equal(await exploreLoop(io, fake, ["--config", "/p q/x.json"]), 0);
  assert.deepEqual(runs, [["--config", "/p q/x.json", "types", "everything"]]);
  assert.match(io.stdout, /^\$ mcpx --config '\/p q\/x\.json' types everything$/m);
});

Deno.test("exploreLoop() prints the explorer's help without running anything", async () => {
  const io = memoryIo();
  const { fake, runs } = seams(["help"]);
  await exploreLoop(io, fake);
  assert.deepEqual(runs, []);
  assert.match(io.stdout, /^ {2}chain \[<id>\] +recent calls/m);
});

Deno.test("exploreLoop() on a terminal prompts on stderr before each line and leaves on Ctrl-D", async () => {
  const io = memoryIo();
  const { fake } = seams(["ls"], { terminal: true });
  assert.equal(await exploreLoop(io, fake), 0);
  // The greeting, a prompt, the command's footer and a blank line, a prompt, then end of input's
  // newline.
  assert.equal(io.stderr, `${GREETING}${PROMPT}${PROMPT}\n`);
  assert.equal(io.stdout, "ran ls\n$ mcpx ls\n\n");
});

Deno.test("exploreLoop() on a terminal: Ctrl-C cancels the command running, drops its later output, and goes on", async () => {
  const io = memoryIo();
  let interrupt: () => void = () => {};
  let stopped = false;
  let late: Io | undefined;
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => started = resolve);
  const { fake, runs } = seams(["call everything.slow", "ls"], {
    terminal: true,
    interrupts(onInterrupt) {
      interrupt = onInterrupt;
      return () => stopped = true;
    },
    run(argv, commandIo) {
      runs.push(argv);
      if (argv[0] === "ls") return Promise.resolve(0);
      late = commandIo;
      commandIo.out("partial\n");
      started();
      // A command that never notices its signal.
      return new Promise<number>(() => {});
    },
  });
  const loop = exploreLoop(io, fake);
  await running;
  interrupt();
  assert.equal(await loop, 0);
  late!.out("too late\n");
  late!.err("too late\n");
  assert.deepEqual(runs.map((argv) => argv[0]), ["call", "ls"]);
  assert.equal(io.stdout, "partial\n$ mcpx call everything.slow\n\n$ mcpx ls\n\n");
  assert.match(io.stderr, /\ncancelled\n/);
  assert.ok(!io.stderr.includes("too late"));
  assert.ok(stopped, "the SIGINT listener is removed when the loop ends");
});

Deno.test("exploreLoop() on a terminal: Ctrl-C at the prompt gives a new prompt and keeps reading", async () => {
  const io = memoryIo();
  let interrupt: () => void = () => {};
  let typed: (line: string | undefined) => void = () => {};
  let reads = 0;
  const { fake, runs } = seams([], {
    terminal: true,
    interrupts(onInterrupt) {
      interrupt = onInterrupt;
      return () => {};
    },
    nextLine: () => {
      reads++;
      return new Promise((resolve) => typed = resolve);
    },
  });
  const loop = exploreLoop(io, fake);
  await Promise.resolve();
  interrupt();
  assert.equal(io.stderr, `${GREETING}${PROMPT}\n${PROMPT}`);
  typed(undefined);
  assert.equal(await loop, 0);
  assert.equal(reads, 1, "the line being read is still the one read");
  assert.deepEqual(runs, []);
});

Deno.test("exploreLoop() gives a command no stdin: `-` is refused with what to do instead", async () => {
  const io = memoryIo();
  let refusal = "";
  const { fake } = seams(["call fs.write -"], {
    async run(_argv, commandIo) {
      refusal = await commandIo.readStdin("the arguments on stdin", { maxBytes: 1024 })
        .then(() => "read", (error) => (error as Error).message);
      return 2;
    },
  });
  await exploreLoop(io, fake);
  assert.match(refusal, /explore reads its commands from stdin.*inline or as @file/);
});

Deno.test("exploreLoop() stops with 1 and one error line when a line is past the limit", async () => {
  const io = memoryIo();
  const { fake } = seams([], {
    nextLine: () =>
      Promise.reject(
        new InputError("a line of explore's input holds more than 1 KiB", {
          input: "a line",
          problem: "too-large",
        }),
      ),
  });
  assert.equal(await exploreLoop(io, fake), 1);
  assert.equal(io.stderr, "error: a line of explore's input holds more than 1 KiB\n");
});

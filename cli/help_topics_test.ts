import assert from "node:assert/strict";
import { helpTopics, TOPICS_URL, topicText } from "./help_topics.ts";
import { OP_ROWS } from "../ops/_table.gen.ts";
import { memoryIo } from "../core/io.ts";
import { UsageError } from "../core/errors.ts";
import { mcpxInProcess as run } from "../tests/_in_process.ts";

const ROOT = new URL("../", import.meta.url);

/** AGENTS.md, the guide an agent is given. */
const guide = await Deno.readTextFile(new URL("AGENTS.md", ROOT));

/** The topics AGENTS.md names anywhere: each `mcpx help <topic>` in it, in order. */
const named = [...guide.matchAll(/`mcpx help ([a-z0-9-]+)`/g)].map((m) => m[1]);

/** AGENTS.md's list of topics: the `- \`mcpx help <topic>\`…` lines of its "Topics" section. */
const listed = [...(guide.split(/^## Topics$/m)[1] ?? "").matchAll(/^- `mcpx help ([a-z0-9-]+)`/gm)]
  .map((m) => m[1]);

/** Every command word, hidden ones too: a topic of that name could never be printed. */
const commands = OP_ROWS.flatMap((op) => op.cli ? [op.cli.command] : []);

Deno.test("AGENTS.md holds the core loop in at most 4,800 bytes (1,200 tokens at bytes/4)", () => {
  const bytes = new TextEncoder().encode(guide).length;
  assert.ok(bytes <= 4_800, `AGENTS.md is ${bytes} bytes; move a section to docs/topics/`);
  for (
    const loop of ["mcpx ls", "mcpx search", "mcpx types", "mcpx call", "mcpx run", "mcpx exec"]
  ) {
    assert.ok(guide.includes(`\`${loop}`), `AGENTS.md does not teach ${loop}`);
  }
  assert.match(guide, /^## When something is wrong$/m);
});

Deno.test("every topic AGENTS.md names prints its file through `mcpx help <topic>`", async () => {
  assert.ok(named.length > 0, "AGENTS.md names no `mcpx help <topic>`");
  for (const topic of named) {
    const result = await run(["help", topic]);
    assert.equal(result.code, 0, `mcpx help ${topic}: ${result.stderr}`);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /^# \S.*\n\n\S/, `mcpx help ${topic} printed no topic`);
    const file = await Deno.readTextFile(new URL(`${topic}.md`, TOPICS_URL));
    assert.equal(result.stdout, file, topic);
  }
});

Deno.test("every topic file has one line in AGENTS.md's list, and no command's name", async () => {
  const topics = (await helpTopics()).map((t) => t.name);
  assert.ok(topics.length > 0);
  // Every file in the folder is a topic: none is skipped for its name.
  const files: string[] = [];
  for await (const entry of Deno.readDir(TOPICS_URL)) files.push(entry.name);
  assert.deepEqual(files.map((f) => f.replace(/\.md$/, "")).sort(), topics);
  assert.deepEqual([...listed].sort(), topics, "AGENTS.md's list and docs/topics/ differ");
  for (const topic of named) {
    assert.ok(
      topics.includes(topic),
      `AGENTS.md names "${topic}", which has no docs/topics/${topic}.md`,
    );
  }
  for (const topic of topics) {
    assert.ok(!commands.includes(topic), `topic "${topic}" is hidden by the command of its name`);
  }
});

Deno.test("mcpx help lists the commands and every topic with its title", async () => {
  const result = await run(["help"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /commands:\n\s+ls\s/);
  for (const { name, title } of await helpTopics()) {
    assert.match(result.stdout, new RegExp(`^  ${name} +${RegExp.escape(title)}$`, "m"));
  }
  // A command's name still prints that command's help.
  assert.match((await run(["help", "call"])).stdout, /^usage: mcpx call /);
});

Deno.test("mcpx help <word> refuses a word that is neither a topic nor a command", async () => {
  const result = await run(["help", "slow-tool"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^usage: mcpx help \[<command> \| <topic>\]$/m);
  assert.match(
    result.stderr,
    /^error: "slow-tool" is neither a command nor a help topic; did you mean slow-tools\?$/m,
  );
  assert.match(result.stderr, /^topics: .*\bslow-tools\b.*\btroubleshooting\b/m);
  assert.match(result.stderr, /^commands: ls, search, types, /m);
});

Deno.test("topicText() reads no file outside the topics' folder", async () => {
  for (const name of ["../../AGENTS", "/etc/passwd", "Slow-Tools", "slow-tools.md", ""]) {
    await assert.rejects(topicText(name, ["ls"]), UsageError, name);
  }
});

Deno.test("helpTopics() is empty, and topicText() says so, where the folder is missing", async () => {
  const nowhere = new URL("no-such-folder/", TOPICS_URL);
  assert.deepEqual(await helpTopics(nowhere), []);
  await assert.rejects(
    topicText("slow-tools", ["ls"], nowhere),
    /topics: none \(no .*no-such-folder/,
  );
});

Deno.test("cli/mcpx.bundle.js prints a topic from the checkout's docs/topics/", async () => {
  // The bundle's URL is the base it reads from (core/root.ts ROOT_URL), as the installed mcpx runs.
  const bundle = await import(new URL("mcpx.bundle.js", import.meta.url).href);
  const io = memoryIo();
  const dir = await Deno.makeTempDir();
  try {
    const env = { HOME: dir, MCPX_STATE_DIR: `${dir}/s`, MCPX_CACHE_DIR: `${dir}/c` };
    const topic = (await helpTopics())[0].name;
    const code = await bundle.runCommandLine(
      ["help", topic],
      () => {
        throw new Error("no command runs");
      },
      io,
      env,
      dir,
    );
    assert.equal(code, 0, io.stderr);
    assert.equal(io.stdout, await Deno.readTextFile(new URL(`${topic}.md`, TOPICS_URL)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

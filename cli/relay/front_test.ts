import assert from "node:assert/strict";
import { frontAnswerer, listenOnce, notForTheFront, serveFront, streamingIo } from "./front.ts";
import { relayable, RELAYED_COMMANDS } from "./relayed.ts";
import { FRAME, FrameWriter, requestLine } from "./relay_wire.ts";
import { VERSION } from "../../core/version.ts";
import { type Io, memoryIo } from "../../core/io.ts";
import { commandNameOf } from "../command_line.ts";

const request = (argv: string[], cwd = "/w", version = VERSION, home = "/h") =>
  JSON.stringify({ version, argv, cwd, env: { HOME: home }, callerPid: 42, clientPid: 43 });

/** A link whose io keeps what the command wrote. */
const link = () => ({ io: memoryIo() });

Deno.test("the front runs relayed command lines side by side, each with its caller's directory, environment and pid", async () => {
  const seen: unknown[] = [];
  let running = 0;
  let most = 0;
  const run = async (
    argv: string[],
    io?: Io,
    env?: Record<string, string>,
    cwd?: string,
    caller?: { callerPid?: number },
  ) => {
    running++;
    most = Math.max(most, running);
    seen.push([argv, cwd, env?.HOME, caller?.callerPid]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    io!.out(`out ${argv[0]} ${cwd}\n`);
    io!.err(`err ${argv[0]} ${env?.HOME}\n`);
    running--;
    return argv[0] === "types" ? 1 : 0;
  };
  const answer = frontAnswerer({ run, commandNameOf });
  const links = [link(), link()];
  const answers = await Promise.all([
    answer(request(["ls"]), links[0]),
    answer(request(["types", "x"], "/other", VERSION, "/h2"), links[1]),
  ]);
  assert.equal(most, 2, "a slow command does not hold up another caller's");
  assert.deepEqual(answers, [{ code: 0 }, { code: 1 }]);
  assert.deepEqual(links.map((l) => [l.io.stdout, l.io.stderr]), [
    ["out ls /w\n", "err ls /h\n"],
    ["out types /other\n", "err types /h2\n"],
  ]);
  assert.deepEqual(seen, [[["ls"], "/w", "/h", 42], [["types", "x"], "/other", "/h2", 42]]);
});

Deno.test("the front refuses, running nothing: another version, rebuilt code, a malformed or oversized request, a command that is not relayed", async () => {
  let ran = 0;
  let stale = 0;
  let rebuilt: string | undefined;
  const answer = frontAnswerer({
    run: () => Promise.resolve(ran++),
    commandNameOf,
    onOtherVersion: () => stale++,
    stale: () => rebuilt,
  });
  const other = await answer(request(["ls"], "/w", "0.0.0-other"), link()) as {
    refused?: string;
  };
  assert.match(other.refused ?? "", /this front is mcpx .*, the client 0\.0\.0-other/);
  assert.equal(stale, 1, "a stale front is told to go");
  rebuilt = "rebuilt";
  assert.deepEqual(await answer(request(["ls"]), link()), { refused: "rebuilt" });
  assert.equal(stale, 2);
  rebuilt = undefined;
  assert.ok("refused" in await answer("{not json", link()));
  assert.ok("refused" in await answer(JSON.stringify({ version: VERSION, argv: "ls" }), link()));
  assert.ok("refused" in await answer(undefined, link()), "over the size limit");
  const serve = await answer(request(["serve"]), link());
  assert.deepEqual(serve, { refused: "`serve` runs in the caller's process", local: true });
  assert.ok(
    "local" in await answer(request(["call", "a.b", "-"]), link()),
    "stdin is the caller's",
  );
  const noSpawner = JSON.stringify({
    version: VERSION,
    argv: ["run", "./s.ts"],
    cwd: "/w",
    env: {},
    callerPid: 42,
  });
  assert.deepEqual(await answer(noSpawner, link()), {
    refused: "`run` needs a client that starts its runtime",
    local: true,
  });
  assert.equal(ran, 0);
});

Deno.test("streamingIo(): what a command writes goes out in the order it wrote it, a turn's writes to one stream as one frame", async () => {
  const frames: [number, string][] = [];
  const writer = new FrameWriter({
    write: (bytes: Uint8Array) => {
      frames.push([bytes[0], new TextDecoder().decode(bytes.subarray(5))]);
      return Promise.resolve(bytes.length);
    },
  });
  const io = streamingIo(writer);
  io.err("note: first\n");
  io.out("a\n");
  io.out("b\x1b[2J\n");
  io.err("note: last\n");
  await io.flushed();
  io.errRaw!("raw\x1b[0m\n");
  await io.flushed();
  assert.deepEqual(frames, [
    [FRAME.err, "note: first\n"],
    [FRAME.out, "a\nb\\u001b[2J\n"],
    [FRAME.err, "note: last\n"],
    [FRAME.err, "raw\x1b[0m\n"],
  ]);
  await assert.rejects(io.readStdin("x", { maxBytes: 1, setting: "x" } as never), /caller's/);
});

Deno.test("notForTheFront(): the parser's command, not the first word", () => {
  assert.match(
    notForTheFront(["call", "a.b", "@/dev/fd/9"], commandNameOf) ?? "",
    /only the caller's process can open/,
  );
  assert.match(
    notForTheFront(["ls"], commandNameOf, { MCPX_CONFIG: "/dev/stdin" }) ?? "",
    /only the caller's process/,
  );
  assert.equal(notForTheFront(["ls"], commandNameOf), undefined);
  assert.equal(notForTheFront(["--json", "call", "a.b", "{}"], commandNameOf), undefined);
  assert.equal(
    notForTheFront(["nosuchcommand"], commandNameOf),
    undefined,
    "its usage error is the same anywhere",
  );
  // A flag's value that happens to be a relayed word: the launcher relays it, the front does not run it.
  assert.match(
    notForTheFront(["--session", "ls", "serve"], commandNameOf) ?? "",
    /`serve` runs in/,
  );
  assert.match(notForTheFront(["--version"], commandNameOf) ?? "", /`mcpx` runs in/);
});

Deno.test("a caller that goes away aborts its command in the front", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/front.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  let started!: () => void;
  const began = new Promise<void>((resolve) => started = resolve);
  let aborted!: (why: string) => void;
  const abort = new Promise<string>((resolve) => aborted = resolve);
  const answer = frontAnswerer({
    commandNameOf,
    run: (_argv, _io, _env, _cwd, caller) =>
      new Promise<number>((resolve) => {
        started();
        caller?.signal?.addEventListener("abort", () => {
          aborted("aborted");
          resolve(130);
        });
      }),
  });
  const served = serveFront(listener, answer);
  const conn = await Deno.connect({ transport: "unix", path });
  const line = requestLine({
    version: VERSION,
    argv: ["call", "a.b"],
    cwd: dir,
    env: {},
    callerPid: 1,
  });
  await conn.write(new TextEncoder().encode(line));
  await began;
  conn.close();
  assert.equal(
    await Promise.race([abort, new Promise((r) => setTimeout(() => r("not aborted"), 5000))]),
    "aborted",
  );
  listener.close();
  await served;
  await Deno.remove(dir, { recursive: true });
});

Deno.test("relayable(): the warm commands, off a terminal, not reading stdin", () => {
  assert.equal(relayable(["ls"], false), true);
  assert.equal(relayable(["--json", "call", "a.b", "{}"], false), true);
  assert.equal(relayable(["ls"], true), false, "a terminal gets progress and questions here");
  assert.equal(relayable(["call", "a.b", "-"], false), false, "stdin is this process's");
  assert.equal(relayable(["call", "a.b", "@/dev/fd/3"], false), false, "its descriptors too");
  assert.equal(relayable(["--config=/proc/self/fd/3", "ls"], false), false);
  assert.equal(relayable(["ls"], false, { MCPX_CONFIG: "/dev/fd/4" }), false);
  assert.equal(relayable(["call", "a.b", "@./args.json"], false), true);
  assert.equal(
    relayable(["run", "./s.ts"], false),
    true,
    "the front prepares, the client starts it",
  );
  assert.equal(relayable(["serve"], false), false);
  assert.equal(relayable(["--version"], false), false);
  assert.equal(relayable([], false), false);
});

Deno.test("the launcher (cli/mcpx) relays exactly the relayed commands", async () => {
  const launcher = await Deno.readTextFile(new URL("../mcpx", import.meta.url));
  const words = launcher.match(/^\s*((?:[a-z]+ \| )*[a-z]+)\)$/m)?.[1].split(" | ");
  assert.deepEqual(words, [...RELAYED_COMMANDS]);
});

Deno.test("listenOnce(): of fronts starting at once, one listens and the others leave it the socket", async () => {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/front.sock`;
  // A file left where a front that died listened is replaced.
  await Deno.writeTextFile(socket, "");
  const started = await Promise.all([listenOnce(socket), listenOnce(socket), listenOnce(socket)]);
  const listening = started.filter((l): l is Deno.Listener => l !== undefined);
  assert.equal(listening.length, 1, "exactly one listens");
  assert.equal(Deno.statSync(socket).mode! & 0o777, 0o600);
  (await Deno.connect({ transport: "unix", path: socket })).close();
  assert.equal(await listenOnce(socket), undefined, "a later one finds it answering");
  listening[0].close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a stop request runs nothing and tells the front to end (mcpx stop --all)", async () => {
  let ran = 0;
  let stops = 0;
  const answer = frontAnswerer({
    run: () => Promise.resolve(ran++),
    commandNameOf,
    onStop: () => stops++,
  });
  const stop = JSON.stringify({
    version: VERSION,
    argv: [],
    cwd: "/",
    env: {},
    callerPid: 1,
    stop: true,
  });
  assert.deepEqual(await answer(stop, link()), { code: 0 });
  assert.equal(stops, 1);
  assert.equal(ran, 0);
});

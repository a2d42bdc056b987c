import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DEFAULT_POOL, type PoolSettings, type ServerSpec } from "../config/types.ts";
import { MAX_BACKOFF_MS, PID_CHECK_MS, Pool } from "./pool.ts";
import { pidAlive } from "../core/pid_alive.ts";
import { ServerError, TimeoutError } from "../core/errors.ts";
import { LeaseBoard, LeaseDeadlockError } from "./lease_board.ts";
import { formatScopeKey, parseScopeKey } from "./scope_key.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

function spec(pool: Partial<PoolSettings> = {}, launch: Partial<ServerSpec> = {}): ServerSpec {
  return {
    name: "fixture",
    namespace: "fixture",
    disabled: false,
    tags: [],
    profiles: [],
    default: true,
    toolTags: {},
    toolFilter: { exclude: [] },
    transport: "stdio",
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--config",
      `${root}deno.json`,
      `${root}tests/fixtures/servers/misbehaving.ts`,
    ],
    env: {},
    headers: {},
    pool: { ...DEFAULT_POOL, ...pool },
    poolId: "test",
    listingId: "test",
    ...launch,
  };
}

Deno.test("Pool.lease() shares one global instance between callers", async () => {
  const pool = new Pool(spec(), Deno.env.toObject());
  try {
    const [a, b] = await Promise.all([pool.lease({}), pool.lease({})]);
    assert.equal(a.instance, b.instance);
    assert.equal(pool.holders(a.instance), 2);
    a.release();
    b.release();
    assert.equal(pool.holders(a.instance), 0);
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() serializes exclusive callers at max 1 and times out naming the limit", async () => {
  const pool = new Pool(
    spec({ sharing: "exclusive", max: 1, startTimeoutMs: 5000 }),
    Deno.env.toObject(),
  );
  try {
    const first = await pool.lease({});
    let secondGot = false;
    const second = pool.lease({}).then((lease) => {
      secondGot = true;
      return lease;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(secondGot, false, "the second caller waits while the first holds the lease");
    first.release();
    const lease = await second;
    assert.equal(lease.instance, first.instance);
    const short = new Pool(spec({ sharing: "exclusive", max: 1 }), Deno.env.toObject());
    try {
      const held = await short.lease({});
      // The wait for a free instance has its own bound, leaseTimeout: the start's stays long.
      short.spec.pool.leaseTimeoutMs = 200;
      await assert.rejects(() => short.lease({}), (error: Error) => {
        assert.ok(error instanceof TimeoutError);
        assert.equal(error.bound, "leaseTimeout");
        assert.equal(error.setting, "leaseTimeout");
        assert.match(error.message, /key global/);
        assert.match(error.message, /max 1 instance/);
        assert.match(error.message, /raise leaseTimeout/);
        return true;
      });
      held.release();
    } finally {
      await short.stop("stop");
    }
    lease.release();
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() backs off after a failed start instead of retrying at once", async () => {
  const pool = new Pool(
    spec({}, { command: "sh", args: ["-c", "echo 'fatal: no token' >&2; exit 3"] }),
    Deno.env.toObject(),
  );
  await assert.rejects(() => pool.lease({}), (error: Error) => {
    assert.ok(error instanceof ServerError);
    assert.match(error.message, /exited with code 3 before answering initialize/);
    assert.match(error.message, /fatal: no token/);
    return true;
  });
  assert.equal(pool.failure?.count, 1);
  const retryAt = pool.failure!.retryAt;
  await assert.rejects(() => pool.lease({}), /next attempt in \d+s/);
  assert.equal(pool.failure?.count, 1, "a lease during the cooldown does not start the server");
  assert.ok(retryAt - Date.now() <= MAX_BACKOFF_MS);
});

Deno.test("Pool.reap() stops instances idle past idleTimeout and keeps held ones", async () => {
  const pool = new Pool(spec({ idleTimeoutMs: 1000 }), Deno.env.toObject());
  try {
    const lease = await pool.lease({});
    assert.equal(await pool.reap(Date.now() + 5000), 0, "a held instance is not reaped");
    lease.release();
    assert.equal(await pool.reap(Date.now() + 500), 0, "not idle long enough");
    assert.equal(await pool.reap(Date.now() + 5000), 1);
    assert.equal(pool.instances.length, 0);
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("serverEnvironment() keeps the shell's variables but not mcpx's own", async () => {
  const { serverEnvironment } = await import("./instance.ts");
  const env = serverEnvironment({
    PATH: "/bin",
    HOME: "/h",
    MCPX_SESSION_ID: "s1",
    MCPX_CONFIG: "/x.json",
    MCPX_CATALOG_BUDGET: "5",
    MCPX_STATE_DIR: "/s",
    MY_TOKEN: "t",
  });
  assert.deepEqual(env, { PATH: "/bin", HOME: "/h", MY_TOKEN: "t" });
});

Deno.test("Pool.lease() waits no longer than the caller's own timeout", async () => {
  const pool = new Pool(spec({ sharing: "exclusive", max: 1 }), Deno.env.toObject());
  try {
    const held = await pool.lease({});
    await assert.rejects(() => pool.lease({}, { waitMs: 150 }), (error: Error) => {
      assert.ok(error instanceof TimeoutError);
      assert.match(error.message, /became free within 150 ms \(--timeout;/);
      assert.equal(error.setting, "--timeout");
      return true;
    });
    held.release();
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.warm() starts min instances and reap() keeps them", async () => {
  const pool = new Pool(spec({ min: 1, idleTimeoutMs: 1000 }), Deno.env.toObject());
  try {
    await pool.warm([{ kind: "global" }]);
    assert.equal(pool.instances.length, 1, "min 1 starts one at once");
    assert.equal(await pool.reap(Date.now() + 60_000), 0, "min instances are never reaped");
    assert.equal(pool.instances.length, 1);
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() gives an exclusive session one process: a second caller of the session waits for it", async () => {
  const pool = new Pool(
    spec({ sharing: "exclusive", scope: "session", max: 4 }),
    Deno.env.toObject(),
  );
  try {
    const first = await pool.lease({ session: "a" });
    const second = pool.lease({ session: "a" });
    const other = await pool.lease({ session: "b" });
    assert.notEqual(other.instance, first.instance, "another session gets its own process");
    first.release();
    const again = await second;
    assert.equal(again.instance, first.instance, "the same session reuses its process");
    assert.equal(pool.instances.length, 2);
    again.release();
    other.release();
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool stops a pid-scoped instance within seconds of its pid exiting, and keeps a live pid's", async () => {
  const exited: number[] = [];
  const pool = new Pool(spec({ scope: "pid", max: 2 }), Deno.env.toObject(), {
    pidExited: (_instance, pid) => exited.push(pid),
  });
  const caller = new Deno.Command("sleep", { args: ["60"] }).spawn();
  try {
    const lease = await pool.lease({ pid: caller.pid });
    lease.release();
    const mine = await pool.lease({ pid: Deno.pid });
    mine.release();
    assert.equal(pool.instances.length, 2);
    caller.kill("SIGKILL");
    await caller.status; // reaped: /proc/<pid> is gone
    // The pool's own timer notices; wait for it, with a deadline.
    const deadline = Date.now() + 10 * PID_CHECK_MS;
    while (pool.instances.some((i) => i.key === `pid:${caller.pid}`) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(pool.instances.map((i) => i.key), [`pid:${Deno.pid}`]);
    assert.deepEqual(exited, [caller.pid]);
    assert.equal(mine.instance.closed, false);
  } finally {
    try {
      caller.kill("SIGKILL");
    } catch { /* already gone */ }
    await caller.status;
    await pool.stop("stop");
  }
});

Deno.test("pidAlive() tells a live process from one that exited", async () => {
  assert.equal(pidAlive(Deno.pid), true);
  const child = new Deno.Command("true").spawn();
  await child.status;
  assert.equal(pidAlive(child.pid), false);
});

Deno.test("Pool.end() stops an idle instance of the key at once and a held one when released", async () => {
  const pool = new Pool(
    spec({ scope: "session", sharing: "exclusive", max: 4 }),
    Deno.env.toObject(),
  );
  try {
    const idle = await pool.ensure({ session: "a" });
    const held = await pool.lease({ session: "b" });
    const other = await pool.ensure({ session: "c" });
    const { instances, stopped } = pool.end([
      { kind: "session", value: "a" },
      { kind: "session", value: "b" },
    ], "stop");
    assert.deepEqual(new Set(instances), new Set([idle, held.instance]));
    await stopped;
    assert.equal(idle.closed, true);
    assert.equal(held.instance.closed, false, "the lease in use is not cut off");
    // A new caller of the ending key waits for a fresh instance instead of reusing it.
    const next = pool.lease({ session: "b" });
    held.release();
    const fresh = await next;
    assert.notEqual(fresh.instance, held.instance);
    assert.equal(held.instance.closed, true);
    fresh.release();
    assert.equal(other.closed, false);
  } finally {
    await pool.stop("stop");
  }
});

/** Resolves true when `promise` settles within `ms`, false when it is still pending. */
async function settlesIn(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => timer = setTimeout(() => r(false), ms));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("Pool.lease() keeps an exclusive instance for its run between calls until releaseRun()", async () => {
  const pool = new Pool(spec({ sharing: "exclusive", max: 1 }), Deno.env.toObject());
  try {
    const first = await pool.lease({ run: "A", pid: Deno.pid });
    first.release();
    assert.equal(pool.runHold(first.instance)?.run, "A");
    const otherRun = pool.lease({ run: "B", pid: Deno.pid });
    const plainCall = pool.lease({});
    assert.equal(await settlesIn(otherRun, 300), false, "another run waits for run A to end");
    assert.equal(await settlesIn(plainCall, 1), false, "so does a call outside any run");
    const again = await pool.lease({ run: "A", pid: Deno.pid });
    assert.equal(again.instance, first.instance, "run A's next call gets its instance at once");
    again.release();
    assert.equal(pool.releaseRun("A"), 1);
    const b = await otherRun;
    assert.equal(pool.runHold(b.instance)?.run, "B", "run B holds it now");
    b.release();
    pool.releaseRun("B");
    (await plainCall).release();
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() drops the hold of a run whose mcpx process is gone", async () => {
  const gone: string[] = [];
  const pool = new Pool(spec({ sharing: "exclusive", max: 1 }), Deno.env.toObject(), {
    runGone: (_instance, run) => gone.push(run),
  });
  const runner = new Deno.Command("sleep", { args: ["60"] }).spawn();
  try {
    (await pool.lease({ run: "A", pid: runner.pid })).release();
    const waiting = pool.lease({ run: "B", pid: Deno.pid });
    assert.equal(await settlesIn(waiting, 200), false);
    runner.kill("SIGKILL");
    await runner.status;
    const lease = await waiting;
    assert.deepEqual(gone, ["A"]);
    assert.equal(pool.runHold(lease.instance)?.run, "B");
    lease.release();
  } finally {
    try {
      runner.kill("SIGKILL");
    } catch { /* gone */ }
    await runner.status;
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() refuses at once a run that would wait for a run waiting for it, across pools", async () => {
  const board = new LeaseBoard();
  const env = Deno.env.toObject();
  const x = new Pool(
    spec({ sharing: "exclusive", max: 1 }, { name: "x", namespace: "x" }),
    env,
    {},
    board,
  );
  const y = new Pool(
    spec({ sharing: "exclusive", max: 1 }, { name: "y", namespace: "y" }),
    env,
    {},
    board,
  );
  try {
    (await x.lease({ run: "A", pid: Deno.pid })).release();
    (await y.lease({ run: "B", pid: Deno.pid })).release();
    const bWaits = x.lease({ run: "B", pid: Deno.pid });
    assert.equal(await settlesIn(bWaits, 200), false, "B waits for A's instance");
    await assert.rejects(() => y.lease({ run: "A", pid: Deno.pid }), (error: Error) => {
      assert.ok(error instanceof LeaseDeadlockError);
      assert.match(error.message, /run A waits for y \(global\), held by run B/);
      assert.match(error.message, /run B waits for x \(global\), held by run A/);
      return true;
    });
    x.releaseRun("A"); // run A failed and ended
    (await bWaits).release();
  } finally {
    await Promise.all([x.stop("stop"), y.stop("stop")]);
  }
});

Deno.test("Pool.lease() at max stops the least recently used idle instance for a new key, except kept ones", async () => {
  const evicted: string[] = [];
  const pool = new Pool(
    spec({ sharing: "exclusive", scope: "session", max: 2 }),
    Deno.env.toObject(),
    {
      keep: (key) => formatScopeKey(key) === "session:named",
      evicted: (i, forKey) => evicted.push(`${i.key}>${formatScopeKey(forKey)}`),
    },
  );
  try {
    (await pool.lease({ session: "named" })).release();
    (await pool.lease({ session: "a" })).release();
    const b = await pool.lease({ session: "b" });
    assert.deepEqual(evicted, ["session:a>session:b"], "a, not the kept named session, made room");
    assert.deepEqual(pool.instances.map((i) => i.key).sort(), ["session:b", "session:named"]);
    // Every instance held or kept: a new key waits, bounded by leaseTimeout.
    pool.spec.pool.leaseTimeoutMs = 300;
    await assert.rejects(() => pool.lease({ session: "c" }), (error: Error) => {
      assert.ok(error instanceof TimeoutError);
      assert.equal(error.bound, "leaseTimeout");
      assert.match(error.message, /max 2 instances/);
      return true;
    });
    b.release();
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() with whenFull wait leaves idle instances alone and waits", async () => {
  const pool = new Pool(
    spec({ scope: "session", max: 1, whenFull: "wait", leaseTimeoutMs: 300 }),
    Deno.env.toObject(),
  );
  try {
    const a = await pool.lease({ session: "a" });
    a.release();
    await assert.rejects(() => pool.lease({ session: "b" }), /became free within 300 ms/);
    assert.equal(a.instance.closed, false);
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.warm() keeps min instances for every known key: min for global, one per session key", async () => {
  const global = new Pool(spec({ min: 2, max: 2, idleTimeoutMs: 1000 }), Deno.env.toObject());
  const scoped = new Pool(
    spec({ scope: "session", min: 1, max: 4, idleTimeoutMs: 1000 }),
    Deno.env.toObject(),
  );
  try {
    await global.warm([{ kind: "global" }]);
    assert.equal(global.instances.length, 2, "min 2 of a global server: two instances");
    await scoped.warm([parseScopeKey("session:s1"), parseScopeKey("session:s2")]);
    assert.deepEqual(scoped.instances.map((i) => i.key).sort(), ["session:s1", "session:s2"]);
    (await scoped.lease({ session: "s3" })).release();
    assert.equal(await scoped.reap(Date.now() + 60_000), 0, "each key keeps its one instance");
    assert.equal(await global.reap(Date.now() + 60_000), 0);
  } finally {
    await Promise.all([global.stop("stop"), scoped.stop("stop")]);
  }
});

Deno.test("Pool.lease() posts a wait on the board for the waiter's run, but not a run's wait for itself", async () => {
  const board = new LeaseBoard();
  const pool = new Pool(spec({ sharing: "exclusive", max: 1 }), Deno.env.toObject(), {}, board);
  try {
    const first = await pool.lease({ run: "A", pid: Deno.pid });
    const own = pool.lease({ run: "A", pid: Deno.pid });
    const other = pool.lease({ run: "B", pid: Deno.pid });
    const waits = await board.poll("B", 0, 5000);
    assert.deepEqual(waits.map((w) => [w.run, w.holders.map((h) => h.run)]), [["B", ["A"]]]);
    assert.ok(board.waits.some((w) => w.run === "A" && w.token === undefined), "A waits untold");
    first.release();
    (await own).release();
    pool.releaseRun("A");
    (await other).release();
    assert.deepEqual(board.waits, [], "a wait leaves the board when it ends");
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() tells its caller of its wait once, as it begins, but not a run's wait for itself", async () => {
  const pool = new Pool(spec({ sharing: "exclusive", max: 1 }), Deno.env.toObject(), {});
  try {
    const first = await pool.lease({ run: "A", pid: Deno.pid });
    const told: string[] = [];
    const { promise: heard, resolve } = Promise.withResolvers<void>();
    const own = pool.lease({ run: "A", pid: Deno.pid }, { onWait: () => told.push("A") });
    const other = pool.lease({ pid: Deno.pid }, {
      onWait: (wait) => {
        told.push(`call waits for ${wait.holders.map((h) => h.run).join()}`);
        resolve();
      },
    });
    await heard;
    assert.deepEqual(told, ["call waits for A"]);
    first.release();
    (await own).release();
    pool.releaseRun("A");
    (await other).release();
    assert.deepEqual(told, ["call waits for A"], "one wait, told once");
  } finally {
    await pool.stop("stop");
  }
});

Deno.test("Pool.lease() at max evicts the least recently used of several idle instances, not the most", async () => {
  const evicted: string[] = [];
  const pool = new Pool(
    spec({ sharing: "exclusive", scope: "session", max: 3 }),
    Deno.env.toObject(),
    { evicted: (i, forKey) => evicted.push(`${i.key}>${formatScopeKey(forKey)}`) },
  );
  try {
    for (const session of ["mid", "old", "new"]) (await pool.lease({ session })).release();
    // Ages set, not waited for: three idle candidates, none of them the first started.
    const now = Date.now();
    const age = { old: 30_000, mid: 20_000, new: 10_000 } as Record<string, number>;
    for (const i of pool.instances) i.lastUsedAt = now - age[i.key.slice("session:".length)];
    (await pool.lease({ session: "next" })).release();
    assert.deepEqual(evicted, ["session:old>session:next"], "the oldest made room");
    // Then the oldest left (mid), not the one just used (next) nor the newer one (new).
    (await pool.lease({ session: "last" })).release();
    assert.deepEqual(evicted, ["session:old>session:next", "session:mid>session:last"]);
    assert.deepEqual(pool.instances.map((i) => i.key).sort(), [
      "session:last",
      "session:new",
      "session:next",
    ]);
  } finally {
    await pool.stop("stop");
  }
});

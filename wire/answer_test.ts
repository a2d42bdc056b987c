import assert from "node:assert/strict";
import { decodeErrorBody, readAnswer, WIRE_REFUSALS } from "./answer.ts";
import type { WireErrorBody, WireTimeoutBound } from "./wire.ts";
import { errorToJson, type TimeoutBound, TimeoutError } from "../core/errors.ts";

/** True when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
// The wire names the bounds core/errors.ts has, no more and no fewer.
const _bounds: Equal<WireTimeoutBound, TimeoutBound> = true;
// What errorToJson() writes is a wire error body (daemon/http.ts sends it as one).
const _body: WireErrorBody = errorToJson(new Error("x"));
void [_bounds, _body];

Deno.test("decodeErrorBody() keeps each field of its declared type and drops the rest", () => {
  const timeout = errorToJson(
    new TimeoutError("took too long", 500, { bound: "callTimeout", setting: "--timeout" }),
  );
  assert.deepEqual(decodeErrorBody(JSON.parse(JSON.stringify(timeout))), {
    code: "timeout",
    message: "took too long",
    ms: 500,
    bound: "callTimeout",
    setting: "--timeout",
  });
  assert.deepEqual(
    decodeErrorBody({
      code: "server",
      message: "m",
      stderrTail: 5,
      bound: "someOtherTimeout",
      suggestions: ["a", 1],
      limit: "9",
      extra: true,
    }),
    { code: "server", message: "m", suggestions: ["a"] },
  );
  assert.deepEqual(decodeErrorBody(undefined), {
    code: "internal",
    message: "the daemon failed without a message",
  });
  assert.deepEqual(decodeErrorBody({ code: "", message: 3 }, "fell over"), {
    code: "internal",
    message: "fell over",
  });
});

Deno.test("readAnswer() reads an answer, and nothing that is not one", () => {
  assert.deepEqual(readAnswer('{"ok":true,"result":[1]}'), { ok: true, result: [1] });
  const trace = { namespace: "a", tool: "b", server: "a", key: "global", instance: "i", call: "c" };
  assert.deepEqual(
    readAnswer(JSON.stringify({
      ok: false,
      error: { code: "usage", message: "bad" },
      trace,
      notices: [{ code: "state-damaged", message: "m" }, { code: 1 }],
    })),
    {
      ok: false,
      error: { code: "usage", message: "bad" },
      trace,
      notices: [{ code: "state-damaged", message: "m" }],
    },
  );
  assert.deepEqual(readAnswer('{"ok":false}')?.error?.code, "internal");
  for (const body of ["", "<html>", "[]", "null", '{"result":1}', '{"ok":"yes"}']) {
    assert.equal(readAnswer(body), undefined, body);
  }
});

Deno.test("WIRE_REFUSALS are the codes of a request refused unrun", () => {
  assert.deepEqual([...WIRE_REFUSALS].sort(), [
    "daemon-stopping",
    "trust-mismatch",
    "version-mismatch",
  ]);
});

Deno.test("a namespace the daemon does not have stays named across the wire, for the shadow note", async () => {
  const { NotFoundError } = await import("../core/errors.ts");
  const { fromWire } = await import("./daemon_request.ts");
  const sent = errorToJson(new NotFoundError('unknown namespace "x"', ["xy"], { namespace: "x" }));
  const rebuilt = fromWire(decodeErrorBody(JSON.parse(JSON.stringify(sent))));
  assert.ok(rebuilt instanceof NotFoundError);
  assert.equal(rebuilt.namespace, "x");
  assert.deepEqual(rebuilt.suggestions, ["xy"]);
});

Deno.test("readAnswer() reads a streamed answer: its note lines, then the answer", () => {
  const body =
    '{"note":"waiting: a"}\n{"note":"waiting: b"}\n{"ok":true,"result":1,"notes":["c"]}\n';
  const answer = readAnswer(body);
  assert.equal(answer?.ok, true);
  assert.equal(answer?.result, 1);
  assert.deepEqual(answer?.notes, ["waiting: a", "waiting: b", "c"]);
});

Deno.test("readAnswer() reads a streamed answer's notification lines among its notes, and a body's notifications, keeping only well-formed ones", () => {
  const lines = [
    { notification: { method: "notifications/progress", params: { progress: 1 } } },
    { note: "waiting" },
    { notification: { method: "notifications/message", params: { level: "info", data: "x" } } },
    { notification: { method: "notifications/progress", params: {} } },
    {
      ok: true,
      result: 1,
      notifications: [{ method: "notifications/progress", params: { progress: 2 } }],
    },
  ];
  const answer = readAnswer(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  assert.equal(answer?.result, 1);
  assert.deepEqual(answer?.notes, ["waiting"]);
  assert.deepEqual(answer?.notifications, [
    { method: "notifications/progress", params: { progress: 1 } },
    { method: "notifications/message", params: { level: "info", data: "x" } },
    { method: "notifications/progress", params: { progress: 2 } },
  ]);
});

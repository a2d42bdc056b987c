import assert from "node:assert/strict";
import { queryInput } from "./route_query.ts";
import { events } from "./event_ops.ts";
import { ownFields } from "./caller_schema.ts";

const read = (query: string) =>
  queryInput(events, new URLSearchParams(query), ownFields(events.input));

Deno.test("queryInput() fills lists from repeated or comma-joined parameters and reads booleans", () => {
  assert.deepEqual(ownFields(events.input), ["since", "kind", "server", "session", "follow"]);
  const input = read("since=5&kind=server&kind=call.finished,question&session=a&follow=false");
  assert.equal(input.since, "5");
  assert.deepEqual(input.kind, ["server", "call.finished", "question"]);
  assert.deepEqual(input.session, ["a"]);
  assert.equal(input.follow, false);
  assert.equal(read("follow").follow, true, "a parameter alone is true");
  assert.equal(read("").follow, undefined);
});

Deno.test("queryInput() refuses a parameter the route does not take and a boolean it cannot read", () => {
  assert.throws(() => read("sinse=1"), /events takes no parameter "sinse"; it takes since, kind/);
  assert.throws(() => read("follow=maybe"), /follow must be true or false, got "maybe"/);
  assert.throws(
    () => read("cwd=/tmp"),
    /no parameter "cwd"/,
    "the caller's fields are no parameters",
  );
});

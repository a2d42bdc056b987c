import assert from "node:assert/strict";
import { CALLER_FIELDS, callerBody } from "./caller.ts";

Deno.test("callerBody() sends the declared fields that have a value, an unset variable as absent", () => {
  assert.deepEqual(
    callerBody({
      session: "",
      parentSession: "p",
      cwd: "",
      pid: 9,
      gitDir: "",
      run: "r-1",
      traceIds: "",
      trustCheck: false,
      notices: true,
      selection: { profiles: ["web"], skipDefault: false, all: false },
      // Not a caller field: left for the route's own fields to send.
      ...{ namespace: "fs" },
    }),
    {
      parentSession: "p",
      cwd: "",
      pid: 9,
      run: "r-1",
      traceIds: "",
      trustCheck: false,
      notices: true,
      selection: { profiles: ["web"], skipDefault: false, all: false },
    },
  );
});

Deno.test("CALLER_FIELDS says who reads each field", () => {
  const byReader = (who: string) =>
    Object.entries(CALLER_FIELDS).filter(([, f]) => f.readBy === who).map(([n]) => n);
  assert.deepEqual(byReader("http"), ["traceIds", "trustCheck", "notices", "live"]);
  assert.equal(byReader("engine").length, 11);
});

import assert from "node:assert/strict";
import {
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { describeHttpFailure, httpFailureOf, NotOAuthChallengeError } from "./http_status.ts";

Deno.test("httpFailureOf() reads the status from the SDK's errors, through causes", () => {
  const posted = new SdkHttpError(
    SdkErrorCode.ClientHttpNotImplemented,
    "Error POSTing to endpoint: down",
    {
      status: 503,
      statusText: "Service Unavailable",
      text: "down for maintenance\nmore",
    },
  );
  assert.deepEqual(httpFailureOf(posted), {
    status: 503,
    statusText: "Service Unavailable",
    body: "down for maintenance\nmore",
  });
  assert.equal(httpFailureOf(new Error("wrapped", { cause: posted }))?.status, 503);
  assert.equal(
    httpFailureOf(new SseError(404, "Non-200 status code (404)", {} as never))?.status,
    404,
  );
  assert.equal(httpFailureOf(new UnauthorizedError())?.status, 401);
  assert.equal(httpFailureOf(new Error("fetch failed")), undefined);
});

Deno.test("describeHttpFailure() names the status, the URL and what to check", () => {
  assert.equal(
    describeHttpFailure(
      { status: 503, body: "down for maintenance\nmore" },
      "web",
      "https://x.test/mcp",
    ),
    "HTTP 503 Service Unavailable from https://x.test/mcp: down for maintenance; the server failed: check it, or try again later",
  );
  assert.match(
    describeHttpFailure({ status: 401 }, "web"),
    /^HTTP 401 Unauthorized; .*mcpServers\.web\.headers/,
  );
  // A server with an auth block: the block is what to check.
  assert.match(
    describeHttpFailure({ status: 403 }, "web", undefined, { kind: "auth", type: "bearer" }),
    /^HTTP 403 Forbidden; .*check mcpServers\.web\.auth \(its "bearer" credentials\)/,
  );
  // A server mcpx authorizes with OAuth: `mcpx auth`, never its headers (issue 24)...
  const oauth = { kind: "oauth", command: "mcpx auth prot" } as const;
  const refused = describeHttpFailure({ status: 401 }, "prot", "https://x.test/mcp", oauth);
  assert.match(refused, /^HTTP 401 Unauthorized from .*; .*OAuth.*run `mcpx auth prot`/);
  assert.doesNotMatch(refused, /headers/);
  // ...unless the 401 asked for no bearer token, to a request that carried none.
  assert.match(
    describeHttpFailure(httpFailureOf(new NotOAuthChallengeError())!, "prot", undefined, oauth),
    /check mcpServers\.prot\.headers/,
  );
  assert.match(describeHttpFailure({ status: 404 }, "web"), /check mcpServers\.web\.url/);
  assert.equal(
    describeHttpFailure({ status: 418, statusText: "I'm a teapot" }, "web"),
    "HTTP 418 I'm a teapot",
  );
});

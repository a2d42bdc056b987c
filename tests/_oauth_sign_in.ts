/**
 * Signing in to an OAuth server in a process test, as a person does with
 * `mcpx auth`, the browser's part played by a fetch that follows nothing.
 *
 * @module
 */

import { deepEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import type { World } from "./_helpers.ts";

/** `mcpx auth <server> --no-browser --json`, the browser's part, then `--code/--state`. */
export async function authorize(
  w: World,
  server: string,
  extra: string[] = [],
  options: { env?: Record<string, string> } = {},
): Promise<void> {
  const started = await w.json(["auth", server, "--no-browser", ...extra], options);
  assertMatch(started.callbackUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const answer = await fetch(started.authorizationUrl, { redirect: "manual" });
  await answer.body?.cancel();
  const back = new URL(answer.headers.get("location")!).searchParams;
  assertEquals(back.get("state"), started.state);
  const done = await w.mcpx([
    "auth",
    server,
    "--code",
    back.get("code")!,
    "--state",
    started.state,
    ...extra,
  ], options);
  assertEquals(done.code, 0, done.stderr);
}

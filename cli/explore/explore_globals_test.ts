import assert from "node:assert/strict";
import { globalWords } from "./explore_globals.ts";

Deno.test("globalWords() repeats the explorer's options as typed, a value like a flag joined with =", () => {
  assert.deepEqual(globalWords({ flags: {} }), []);
  assert.deepEqual(
    globalWords({
      configPath: "-odd.json",
      session: "s1",
      flags: { "output.json": true, "discovery.wait": "30s" },
      flagSpellings: { "output.json": "--json" },
    }),
    ["--config=-odd.json", "--session", "s1", "--json", "--discovery-wait", "30s"],
  );
});

Deno.test("globalWords() repeats a repeatable flag once per value", () => {
  // parseArgs gives a repeatable flag's values as an array, which ContextOptions types as a string.
  const flags = { "profiles.active": ["web", "db"] } as unknown as Record<string, string>;
  assert.deepEqual(
    globalWords({ flags, flagSpellings: { "profiles.active": "--profile" } }),
    ["--profile", "web", "--profile", "db"],
  );
});

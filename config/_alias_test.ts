import assert from "node:assert/strict";
import { AliasResolver, LISTED_SERVERS, SUGGESTED_TARGETS } from "./_alias.ts";
import { parseConfig } from "./parse.ts";
import { Problems } from "./_problems.ts";
import { ConfigError } from "../core/errors.ts";
import type { ServerSpec } from "./types.ts";

/** Resolves every alias of `entries` the way parseConfig does; returns the resolver's work. */
function resolveAll(entries: Record<string, unknown>): { work: number; problems: Problems } {
  const problems = new Problems("/c.json");
  const parsed = new Map<string, ServerSpec | undefined>();
  for (const [name, entry] of Object.entries(entries)) {
    if ((entry as { aliasOf?: unknown }).aliasOf === undefined) {
      parsed.set(name, { name } as ServerSpec);
    }
  }
  const resolver = new AliasResolver(entries, parsed, problems);
  for (const [name, entry] of Object.entries(entries)) {
    const wanted = (entry as { aliasOf?: unknown }).aliasOf;
    if (wanted !== undefined) resolver.resolve(name, wanted);
  }
  return { work: resolver.work, problems };
}

/** The messages of a configuration's problems (parseConfig throws them together). */
function problemsOf(text: string): string {
  try {
    parseConfig(text, "/c.json", {});
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return "";
}

Deno.test("AliasResolver: a chain of n aliases is followed in O(n) steps, not O(n²)", () => {
  // s1 → s0, s2 → s1, …: every alias but s1 names an alias, and each error names s0.
  // Walking each chain to its end from scratch (the earlier code) took n²/2 steps.
  const n = 5_000;
  const entries: Record<string, unknown> = { s0: { command: "x" } };
  for (let i = 1; i < n; i++) entries[`s${i}`] = { aliasOf: `s${i - 1}` };
  const { work, problems } = resolveAll(entries);
  assert.equal(problems.list.length, n - 2);
  assert.ok(problems.list.every((p) => p.message.includes(`write "aliasOf": "s0"`)));
  assert.ok(work <= 2 * n, `${work} steps for ${n} entries`);
});

Deno.test("AliasResolver: aliases naming no server cost O(n) together, and list at most 20 servers", () => {
  const n = 5_000;
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) entries[`server${i}`] = { command: "x" };
  for (let i = 0; i < n; i++) entries[`alias${i}`] = { aliasOf: `missing${i}` };
  const { work, problems } = resolveAll(entries);
  assert.equal(problems.list.length, n);
  assert.ok(work <= 2 * n + SUGGESTED_TARGETS * n + n * LISTED_SERVERS, `${work}`);
  const last = problems.list.at(-1)!.message;
  assert.match(last, /the servers are "server0", .*"server19" and 4980 more$/);
});

Deno.test("parseConfig(): what an alias names, and the fix its error gives", async (t) => {
  await t.step("a misspelt target gets a suggestion", () => {
    const message = problemsOf(`{ "mcpServers": {
      "everything": { "command": "x" }, "peek": { "aliasOf": "everythin" } } }`);
    assert.match(message, /names no server, got "everythin"; did you mean `everything`\?/);
  });
  await t.step("an alias of an alias names the server at the end of the chain", () => {
    const message = problemsOf(`{ "mcpServers": {
      "a": { "command": "x" }, "b": { "aliasOf": "a" }, "c": { "aliasOf": "b" },
      "d": { "aliasOf": "c" } } }`);
    assert.match(message, /mcpServers\.c\.aliasOf: names "b", .* write "aliasOf": "a"/);
    assert.match(message, /mcpServers\.d\.aliasOf: names "c", .* write "aliasOf": "a"/);
  });
  await t.step("a cycle of aliases asks for a server with command or url", () => {
    const message = problemsOf(`{ "mcpServers": {
      "a": { "command": "x" }, "b": { "aliasOf": "c" }, "c": { "aliasOf": "b" } } }`);
    assert.match(message, /names "c", which is itself an alias \(of "b"\).*"command" or "url"/);
  });
  await t.step("a missing target lists at most 20 servers, however many there are", () => {
    const servers = Array.from({ length: 30 }, (_, i) => `"srv${i}": { "command": "x" }`);
    const message = problemsOf(
      `{ "mcpServers": { ${servers.join(", ")}, "b": { "aliasOf": "qqqqqqqq" } } }`,
    );
    assert.match(
      message,
      /names no server, got "qqqqqqqq"; the servers are "srv0", .* and 10 more$/,
    );
    assert.doesNotMatch(message, /"srv20"/);
  });
  await t.step("with no server at all, the message says to add one", () => {
    const message = problemsOf(`{ "mcpServers": { "b": { "aliasOf": "zzz" } } }`);
    assert.match(message, /names no server, got "zzz"; no entry has "command" or "url" yet/);
  });
  await t.step("a target that is not a name gets another entry's name as the example", () => {
    const message = problemsOf(`{ "mcpServers": {
      "a": { "command": "x" }, "b": { "aliasOf": 3 } } }`);
    assert.match(message, /must be the name of another server .* got 3; write e\.g\. "a"/);
  });
});

import assert from "node:assert/strict";
import { own, ownRecord, setOwn } from "./own.ts";

/** Names a server or a configuration may use that plain objects already answer to. */
const INHERITED = ["toString", "constructor", "valueOf", "hasOwnProperty", "__proto__"];

Deno.test("own() finds only own properties, whatever the name", () => {
  const parsed = JSON.parse('{"__proto__": ["p"], "echo": ["e"]}') as Record<string, string[]>;
  for (const name of INHERITED.filter((n) => n !== "__proto__")) {
    assert.equal(own(parsed, name), undefined, name);
    assert.equal(own({}, name), undefined, name);
  }
  assert.deepEqual(own(parsed, "__proto__"), ["p"]);
  assert.deepEqual(own(parsed, "echo"), ["e"]);
  assert.equal(own(undefined, "echo"), undefined);
});

Deno.test("setOwn() stores __proto__ as an entry, not as the prototype", () => {
  const record: Record<string, number> = {};
  for (const [i, name] of INHERITED.entries()) setOwn(record, name, i);
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.deepEqual(Object.keys(record), INHERITED);
  assert.deepEqual(
    JSON.parse(JSON.stringify(record)),
    Object.fromEntries(INHERITED.map((n, i) => [n, i])),
  );
});

Deno.test("ownRecord() inherits nothing and round-trips through JSON", () => {
  const record = ownRecord<number>(INHERITED.map((n, i) => [n, i]));
  assert.equal(Object.getPrototypeOf(record), null);
  for (const [i, name] of INHERITED.entries()) assert.equal(record[name], i);
  assert.equal("isPrototypeOf" in record, false);
  assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(record))), INHERITED);
});

import assert from "node:assert/strict";
import { UsageError } from "../core/errors.ts";
import {
  checkSelection,
  howToSelect,
  isSelected,
  parseProfileList,
  type ProfileSelection,
  selectionFromSettings,
  selectionFromWire,
  selectionKey,
} from "./profiles.ts";

const sel = (profiles: string[], skipDefault = false, all = false): ProfileSelection => ({
  profiles,
  skipDefault,
  all,
});

Deno.test("isSelected() follows default, --profile, --skip-default and --all-profiles", async (t) => {
  const plain = { profiles: [], default: true };
  const web = { profiles: ["web"], default: false };
  const webDefault = { profiles: ["web"], default: true };
  const cases: [string, { profiles: string[]; default: boolean }, ProfileSelection, boolean][] = [
    ["a default server with no flags", plain, sel([]), true],
    ["a non-default server with no flags", web, sel([]), false],
    ["a non-default server under its profile", web, sel(["web"]), true],
    ["a non-default server under another profile", web, sel(["db"]), false],
    ["a default server under --skip-default", plain, sel(["web"], true), false],
    ["a default server in the profile under --skip-default", webDefault, sel(["web"], true), true],
    ["anything under --all-profiles", web, sel([], false, true), true],
  ];
  for (const [name, server, selection, expected] of cases) {
    await t.step(name, () => assert.equal(isSelected(server, selection), expected));
  }
  await t.step("a hand-built spec without the fields is a default server", () => {
    assert.equal(isSelected({}, sel([])), true);
  });
});

Deno.test("checkSelection() refuses an unknown profile listing the known ones", () => {
  const servers = [{ profiles: ["web"] }, { profiles: ["db", "web"] }];
  assert.throws(() => checkSelection(servers, sel(["wbe"])), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /unknown profile "wbe".*"db", "web"/);
    return true;
  });
  assert.throws(() => checkSelection([{ profiles: [] }], sel(["web"])), /no server has "profiles"/);
  assert.throws(() => checkSelection(servers, sel([], true)), /--skip-default.*--profile/);
  checkSelection(servers, sel(["db"], true));
});

Deno.test("parseProfileList() and selectionFromSettings() read comma lists", () => {
  assert.deepEqual(parseProfileList(" web,db ,, web"), ["web", "db"]);
  assert.deepEqual(
    selectionFromSettings({
      "profiles.active": { value: "web" },
      "profiles.skipDefault": { value: true },
      "profiles.all": { value: false },
    }),
    sel(["web"], true),
  );
});

Deno.test("howToSelect() names the profile and the flag", () => {
  assert.match(howToSelect({ profiles: ["web"], default: false }), /profile "web".*--profile web/);
  assert.match(howToSelect({ profiles: [], default: false }), /no profile.*--all-profiles/);
  assert.match(howToSelect({ profiles: ["web"], default: true }), /--skip-default/);
});

Deno.test("selectionFromWire() reads the caller's selection and refuses a wrong shape, naming the part", () => {
  assert.equal(selectionFromWire(undefined), undefined);
  assert.deepEqual(selectionFromWire({ profiles: ["web", " db ", "web"] }), sel(["web", "db"]));
  assert.deepEqual(selectionFromWire({ profiles: [], all: true }), sel([], false, true));
  for (
    const [value, part] of [
      ["web", /"selection" must be an object/],
      [{ profiles: "web" }, /"selection\.profiles" must be an array of profile names, got "web"/],
      [{ profiles: [1] }, /"selection\.profiles"/],
      [{ skipDefault: "yes" }, /"selection\.skipDefault" must be true or false, got "yes"/],
      [{ all: 1 }, /"selection\.all"/],
    ] as const
  ) {
    assert.throws(
      () => selectionFromWire(value),
      (e) => e instanceof UsageError && part.test(e.message),
    );
  }
});

Deno.test("selectionKey() is the same for the same selection in any order", () => {
  assert.equal(selectionKey(sel(["a", "b"])), selectionKey(sel(["b", "a", "b"])));
  assert.notEqual(selectionKey(sel(["a"])), selectionKey(sel(["a"], true)));
});

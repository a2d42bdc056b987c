import assert from "node:assert/strict";
import { checkPromptArguments, expandTemplate } from "./named_arguments.ts";
import { UsageError } from "../core/errors.ts";

const ARGS = [
  { name: "city", required: true },
  { name: "state" },
  { name: "country", required: true },
];

Deno.test("checkPromptArguments() accepts the declared arguments, optional ones left out", () => {
  checkPromptArguments("ns.p", ARGS, { city: "Paris", country: "FR" });
  checkPromptArguments("ns.p", undefined, {});
});

Deno.test("checkPromptArguments() names an unknown argument with the nearest declared one", () => {
  assert.throws(
    () => checkPromptArguments("ns.p", ARGS, { cty: "Paris", country: "FR" }),
    (e: Error) =>
      e instanceof UsageError &&
      e.message ===
        `prompt ns.p takes no argument "cty"; did you mean city? ` +
          `Its arguments: city (required), state, country (required).`,
  );
  assert.throws(
    () => checkPromptArguments("ns.q", [], { x: "1" }),
    /^UsageError: prompt ns\.q takes no argument "x"\. Its arguments: none\.$/,
  );
});

Deno.test("checkPromptArguments() names every missing required argument together", () => {
  assert.throws(
    () => checkPromptArguments("ns.p", ARGS, { state: "TX" }),
    (e: Error) =>
      e instanceof UsageError &&
      e.message ===
        "prompt ns.p needs the arguments city, country; pass them as key=value: " +
          "mcpx prompts ns.p city=… country=…",
  );
});

Deno.test("expandTemplate() expands with the SDK's UriTemplate and checks the names", () => {
  assert.equal(expandTemplate("demo://r/{id}", { id: "7" }), "demo://r/7");
  assert.equal(expandTemplate("demo://plain", {}), "demo://plain");
  assert.throws(
    () => expandTemplate("demo://r/{id}", { idd: "7" }),
    /no variable "idd"; did you mean id\?/,
  );
  assert.throws(
    () => expandTemplate("demo://r/{a}/{b}", {}),
    /needs a value for a, b; pass a=… b=…/,
  );
});

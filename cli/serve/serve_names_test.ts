import assert from "node:assert/strict";
import {
  namespacedPrompt,
  namespacedTemplate,
  namespacedUri,
  promptOf,
  ServeNameError,
  serveTemplateOf,
  serveUriOf,
} from "./serve_names.ts";

Deno.test("namespacedUri() percent-encodes the upstream's URI as one segment, and serveUriOf() gives it back exactly", () => {
  assert.equal(namespacedUri("ns", "test://static-text"), "mcpx://ns/test%3A%2F%2Fstatic-text");
  for (
    const uri of [
      "test://static-text",
      "file:///a dir/b c.txt?x=1&y=a%2Fb#part 2",
      "weird://h/%25%20%2F/100%/?#/?#",
      "urn:isbn:0451450523",
      "doc://ünïcødé/😀",
      "",
    ]
  ) {
    for (const namespace of ["ns", "types", "$x_1"]) {
      const named = namespacedUri(namespace, uri);
      assert.ok(!/[\s?#]/.test(named.slice("mcpx://".length)), named);
      assert.equal(named.slice(`mcpx://${namespace}/`.length).includes("/"), namespace === "types");
      if (uri === "") {
        assert.throws(() => serveUriOf(named), ServeNameError);
        continue;
      }
      assert.deepEqual(serveUriOf(named), { kind: "upstream", namespace, uri }, named);
    }
  }
});

Deno.test("serveUriOf() keeps serve's signature resources apart from a namespace named types", () => {
  assert.deepEqual(serveUriOf("mcpx://types/fs"), { kind: "types", path: "fs" });
  assert.deepEqual(serveUriOf("mcpx://types/fs/read_file"), {
    kind: "types",
    path: "fs/read_file",
  });
  assert.equal(namespacedUri("types", "fs"), "mcpx://types/-/fs");
  assert.deepEqual(serveUriOf("mcpx://types/-/fs"), {
    kind: "upstream",
    namespace: "types",
    uri: "fs",
  });
  assert.equal(serveUriOf("test://static-text"), undefined, "not serve's");
  assert.equal(serveUriOf("mcpx://ns"), undefined, "no path");
  assert.throws(() => serveUriOf("mcpx://ns/%E0%A4%A"), /not percent-encoded as serve lists it/);
});

Deno.test("namespacedTemplate() encodes the literal parts and keeps the expressions, so an expansion maps back to the upstream's", () => {
  const template = namespacedTemplate("ns", "test://template/{id}/data");
  assert.equal(template, "mcpx://ns/test%3A%2F%2Ftemplate%2F{id}%2Fdata");
  assert.deepEqual(serveTemplateOf(template), {
    kind: "upstream",
    namespace: "ns",
    uri: "test://template/{id}/data",
  });
  // A client expands the namespaced template (RFC 6570 simple expansion) ...
  const expanded = template.replace("{id}", encodeURIComponent("123"));
  // ... and the URI it gets reads back as the upstream's template expanded with the same value.
  assert.deepEqual(serveUriOf(expanded), {
    kind: "upstream",
    namespace: "ns",
    uri: "test://template/123/data",
  });
  for (
    const upstream of [
      "file:///{+path}",
      "search://q{?query,page}",
      "a b://x/{id}#{frag}",
      "odd://{unclosed/{x}",
    ]
  ) {
    for (const namespace of ["ns", "types"]) {
      const named = namespacedTemplate(namespace, upstream);
      assert.deepEqual(serveTemplateOf(named), { kind: "upstream", namespace, uri: upstream });
    }
  }
  assert.deepEqual(serveTemplateOf("mcpx://types/{namespace}/{tool}"), {
    kind: "types",
    path: "{namespace}/{tool}",
  });
});

Deno.test("promptOf() splits <namespace>.<prompt> at the first dot, as namespacedPrompt() joins it", () => {
  assert.equal(namespacedPrompt("ns", "a.b"), "ns.a.b");
  assert.deepEqual(promptOf("ns.a.b"), ["ns", "a.b"]);
  for (const bad of ["plain", ".x", "ns."]) {
    assert.throws(() => promptOf(bad), /is not <namespace>\.<prompt>/, bad);
  }
});

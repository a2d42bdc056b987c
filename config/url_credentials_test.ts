import assert from "node:assert/strict";
import { authorizationHeader, remoteEndpoint, urlCredentials } from "./url_credentials.ts";
import { parseConfig } from "./parse.ts";

const basic = (userPass: string) => `Basic ${new TextEncoder().encode(userPass).toBase64()}`;

Deno.test("remoteEndpoint() hands the transport a URL without credentials", async (t) => {
  await t.step("without credentials, URL and headers are as configured", () => {
    const headers = { "X-Api": "v" };
    const e = remoteEndpoint("https://h.test/mcp?x=1", headers);
    assert.equal(e.url.href, "https://h.test/mcp?x=1");
    assert.deepEqual(e.headers, headers);
  });

  await t.step("credentials and no Authorization header become an explicit Basic header", () => {
    const e = remoteEndpoint("http://user:pa55word-xyz@127.0.0.1:9/mcp?api_key=k", { "X-A": "1" });
    assert.equal(e.url.href, "http://127.0.0.1:9/mcp?api_key=k");
    assert.deepEqual(e.headers, { "X-A": "1", Authorization: basic("user:pa55word-xyz") });
  });

  await t.step("a user name alone is sent with an empty password; encoded text is decoded", () => {
    assert.equal(
      remoteEndpoint("https://tok3n@h.test/", {}).headers.Authorization,
      basic("tok3n:"),
    );
    assert.equal(
      remoteEndpoint("https://m%C3%A9:p%40ss%3Aw@h.test/", {}).headers.Authorization,
      basic("mé:p@ss:w"),
    );
  });

  await t.step("a configured Authorization header wins, whatever its case", () => {
    for (const name of ["Authorization", "authorization", "AUTHORIZATION"]) {
      const e = remoteEndpoint("http://user:pw@h.test/mcp", { [name]: "Bearer t" });
      assert.equal(e.url.href, "http://h.test/mcp");
      assert.deepEqual(e.headers, { [name]: "Bearer t" });
    }
  });
});

Deno.test("urlCredentials() and authorizationHeader() read what is there, or nothing", () => {
  assert.equal(urlCredentials("https://h.test/mcp"), undefined);
  assert.equal(urlCredentials("not a url"), undefined);
  assert.deepEqual(urlCredentials("https://:only-pw@h.test/"), {
    username: "",
    password: "only-pw",
  });
  assert.equal(authorizationHeader({ "x-a": "1", authorization: "b" }), "authorization");
  assert.equal(authorizationHeader({ "x-a": "1" }), undefined);
});

Deno.test("parseConfig() warns when a URL's credentials and an Authorization header overlap, naming both", () => {
  const text = `{ "mcpServers": {
    "both": { "url": "http://user:pw@h.test/mcp", "headers": { "authorization": "Bearer x" } },
    "url": { "url": "http://user:pw@h.test/mcp" },
    "header": { "url": "http://h.test/mcp", "headers": { "Authorization": "Bearer x" } } } }`;
  const { warnings } = parseConfig(text, "/p/.mcp.json", {});
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /^config \/p\/\.mcp\.json: mcpServers\.both\.url: .*not sent, because mcpServers\.both\.headers\.authorization is; remove one of them$/,
  );
  assert.ok(!warnings[0].includes("pw"), "the warning does not print the password");
});

import assert from "node:assert/strict";
import { REDACTED, Redactor, serverSecrets } from "./redact.ts";

Deno.test("serverSecrets() takes env and header values, and the token inside a header", () => {
  const secrets = serverSecrets([
    {
      env: { API_KEY: "sk-live-123456", DEBUG: "1" },
      headers: { Authorization: "Bearer abcdefgh12" },
    },
  ]);
  assert.deepEqual(secrets.sort(), ["Bearer abcdefgh12", "abcdefgh12", "sk-live-123456"].sort());
});

Deno.test("Redactor blanks secret values wherever they appear", () => {
  const r = new Redactor(serverSecrets([{ env: { TOKEN_VALUE: "sk-live-123456" } }]));
  const out = r.attrs({
    error: "auth failed for sk-live-123456",
    nested: { list: ["x sk-live-123456 y"] },
    env: { TOKEN_VALUE: "sk-live-123456" },
    headers: { Authorization: "Bearer x" },
    accessToken: "abc",
    password: "p",
    tokens: 12,
    command: "npx server --url https://user:pw@host/x?api_key=zzz&page=2",
  });
  assert.deepEqual(out, {
    error: `auth failed for ${REDACTED}`,
    nested: { list: [`x ${REDACTED} y`] },
    env: { TOKEN_VALUE: REDACTED },
    headers: { Authorization: REDACTED },
    accessToken: REDACTED,
    password: REDACTED,
    tokens: 12,
    command: `npx server --url https://${REDACTED}@host/x?api_key=${REDACTED}&page=2`,
  });
  assert.ok(!JSON.stringify(out).includes("sk-live"));
});

import assert from "node:assert/strict";
import {
  CREDENTIAL_HEADERS,
  encodedForms,
  isSecretValue,
  REDACTED,
  Redactor,
  SECRET_NAME,
} from "./redact.ts";

const TOKEN = { value: "sk-live-123456", reference: "${API_TOKEN}" };

Deno.test("isSecretValue() leaves short and ordinary values alone unless named like a secret", () => {
  const cases: [string, boolean, boolean][] = [
    // [value, named, secret]
    ["1", false, false],
    ["true", true, false],
    ["abcde", true, false],
    ["production", false, false],
    ["localhost", false, false],
    ["8080", false, false],
    ["127.0.0.1", false, false],
    ["2026-01-01", false, false],
    ["/home/me/projects", false, false],
    ["production", true, true],
    ["123456", true, true],
    ["sk-live-123456", false, true],
    ["api.example.com", false, true],
    ["ghp_0123456789abcdef", false, true],
  ];
  for (const [value, named, secret] of cases) {
    assert.equal(isSecretValue(value, named), secret, `${value} (named: ${named})`);
  }
});

Deno.test("Redactor.text() replaces each secret by its reference, longest first", () => {
  const r = new Redactor([
    TOKEN,
    { value: "Bearer sk-live-123456", reference: "${mcpServers.api.headers.Authorization}" },
    { value: "tiny", reference: "${T}" },
  ]);
  assert.equal(
    r.text("unauthorized: got Bearer sk-live-123456; key sk-live-123456; tiny stays"),
    "unauthorized: got ${mcpServers.api.headers.Authorization}; key ${API_TOKEN}; tiny stays",
  );
});

Deno.test("Redactor.text() replaces the JSON-escaped and percent-encoded forms too", () => {
  const r = new Redactor([{ value: 'a"b/c+d=e', reference: "${K}" }]);
  assert.equal(r.text('{"v":"a\\"b/c+d=e"} ?k=a%22b%2Fc%2Bd%3De'), '{"v":"${K}"} ?k=${K}');
});

Deno.test("Redactor.text() replaces a secret's base64 forms: alone, url-safe, and inside longer encoded bytes", () => {
  const r = new Redactor([
    { value: "pa55word-xyz", reference: "${P}" },
    { value: "user:pa55word-xyz", reference: "${U}" },
    { value: "a~b?c>d~~", reference: "${Q}" },
  ]);
  const b64 = (text: string) => new TextEncoder().encode(text).toBase64();
  const url = (text: string) =>
    new TextEncoder().encode(text).toBase64({ alphabet: "base64url", omitPadding: true });
  assert.equal(r.text(`got Basic ${b64("user:pa55word-xyz")}`), "got Basic ${U}");
  assert.equal(r.text(`token ${b64("pa55word-xyz")}.`), "token ${P}.");
  assert.equal(r.text(`q=${b64("a~b?c>d~~")} u=${url("a~b?c>d~~")}`), "q=${Q} u=${Q}");
  assert.notEqual(b64("a~b?c>d~~").replace(/=+$/, ""), url("a~b?c>d~~"), "the alphabets differ");
  assert.equal(r.text("a~b%3fc%3ed~~ a~b%3Fc%3Ed~~"), "${Q} ${Q}", "percent-encoded, either case");
  // Inside longer bytes, whatever the alignment, only the secret's own characters go.
  for (const before of ["", "a", "ab", "x-access-token:"]) {
    const text = b64(`${before}pa55word-xyz and more`);
    const out = r.text(text);
    assert.ok(out.includes("${P}"), `${before}: ${out}`);
    const [head, tail] = out.split("${P}");
    assert.ok(text.startsWith(head) && text.endsWith(tail), `${before}: ${out}`);
    assert.ok(text.length - head.length - tail.length >= 14, "at least the secret's characters");
  }
});

Deno.test("encodedForms() are distinct, the value first, none shorter than 6 characters", () => {
  const forms = encodedForms("sk-live-123456");
  assert.equal(forms[0], "sk-live-123456");
  assert.equal(new Set(forms).size, forms.length);
  assert.ok(forms.every((f) => f.length >= 6), forms.join(" "));
  assert.ok(forms.includes("c2stbGl2ZS0xMjM0NTY="));
});

Deno.test("Redactor.text() replaces a piece of a secret cut off at a line's ends or before …", () => {
  const r = new Redactor([{ value: "sk-live-0123456789abcdef", reference: "${API_TOKEN}" }]);
  assert.equal(
    r.text("6789abcdef rest\ngot sk-live-0123…"),
    "${API_TOKEN} rest\ngot ${API_TOKEN}…",
  );
  assert.equal(r.text("ends with sk-live-01"), "ends with ${API_TOKEN}");
  assert.equal(r.text("sk-live- and 0123456789"), "sk-live- and 0123456789", "pieces elsewhere");
});

Deno.test("Redactor.text() hides URL credentials and secret-named query values it does not know", () => {
  const r = new Redactor([TOKEN]);
  assert.equal(
    r.text("at https://u:pw@h.test/x?api_key=zz&page=2 and https://h.test/?token=sk-live-123456"),
    `at https://${REDACTED}@h.test/x?api_key=${REDACTED}&page=2 and https://h.test/?token=\${API_TOKEN}`,
  );
});

Deno.test("Redactor.json() redacts every string of a document, keys included, and keeps the rest", () => {
  const r = new Redactor([TOKEN]);
  const input = {
    servers: { api: { error: { message: "got sk-live-123456", count: 2, at: null, ok: false } } },
    list: ["x sk-live-123456 y", 3],
    ["sk-live-123456"]: "key",
  };
  const out = r.json(input);
  assert.deepEqual(out, {
    servers: { api: { error: { message: "got ${API_TOKEN}", count: 2, at: null, ok: false } } },
    list: ["x ${API_TOKEN} y", 3],
    ["${API_TOKEN}"]: "key",
  });
  assert.equal(input.list[0], "x sk-live-123456 y", "the input is not changed");
  assert.equal(r.json(7), 7);
});

Deno.test("Redactor.attrs() blanks secret-named attributes and redacts the others", () => {
  const r = new Redactor([{
    value: "sk-live-123456",
    reference: "${mcpServers.s.env.TOKEN_VALUE}",
  }]);
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
    error: "auth failed for ${mcpServers.s.env.TOKEN_VALUE}",
    nested: { list: ["x ${mcpServers.s.env.TOKEN_VALUE} y"] },
    env: { TOKEN_VALUE: REDACTED },
    headers: { Authorization: REDACTED },
    accessToken: REDACTED,
    password: REDACTED,
    tokens: 12,
    command: `npx server --url https://${REDACTED}@host/x?api_key=${REDACTED}&page=2`,
  });
  assert.ok(!JSON.stringify(out).includes("sk-live"));
});

Deno.test("Redactor keeps the first reference of a value given twice and ignores short ones", () => {
  const r = new Redactor([TOKEN, { value: TOKEN.value, reference: "${OTHER}" }, {
    value: "abc",
    reference: "${X}",
  }]);
  assert.equal(r.text("sk-live-123456 abc"), "${API_TOKEN} abc");
  assert.equal(r.size, 1);
});

Deno.test("Redactor with many secrets scans the text once and replaces the same way", () => {
  const secrets = Array.from({ length: 2000 }, (_, i) => ({
    value: `tok-${String(i).padStart(6, "0")}-secret`,
    reference: `\${T${i}}`,
  }));
  const r = new Redactor(secrets);
  assert.equal(
    r.text("a tok-000007-secret b tok-001999-secret c tok-000"),
    "a ${T7} b ${T1999} c tok-000",
  );
  assert.equal(
    r.text("é🙂tok-000008-secrettok-000009-secret, then dG9rLTAwMDAxMC1zZWNyZXQ="),
    "é🙂${T8}${T9}, then ${T10}",
    "beside other text, back to back, and encoded",
  );
  assert.equal(r.text("…6-secret at the start"), "…6-secret at the start", "under 8 characters");
  assert.equal(r.text("00016-secret is the end of one"), "${T16} is the end of one");
  const big = "x".repeat(200_000) + " tok-001234-secret";
  assert.equal(r.text(big), "x".repeat(200_000) + " ${T1234}");
});

Deno.test("Redactor redacts every credential-bearing header's value it does not know: header lines, JSON pairs, keys, log attributes", () => {
  const r = new Redactor([TOKEN]);
  const value = "sid=zz9988776655; Path=/; HttpOnly";
  // The names as written on the wire (`Set-Cookie`) and in lower case, as HTTP/2 sends them.
  const names = CREDENTIAL_HEADERS.flatMap((
    n,
  ) => [n, n.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase())]);
  for (const name of names) {
    for (
      const [surface, out] of [
        ["a header line", r.text(`HTTP/1.1 401\n${name}: ${value}\nVia: proxy`)],
        ["a JSON pair in text", r.text(JSON.stringify({ [name]: value, via: "proxy" }))],
        ["a key of structured data", JSON.stringify(r.json({ headers: { [name]: value } }))],
        ["a log attribute", JSON.stringify(r.attrs({ [name]: value }))],
      ]
    ) {
      assert.doesNotMatch(out, /zz9988776655/, `${name} as ${surface}: ${out}`);
      assert.ok(out.includes(name), `${name} as ${surface} keeps the header's name: ${out}`);
    }
    assert.match(name, SECRET_NAME, `${name} is a secret's name to the configuration's rules too`);
  }
  // Other lines are left alone, and a configured value keeps its reference.
  assert.equal(r.text("Via: proxy\nCookie: ${SID}"), "Via: proxy\nCookie: ${SID}");
  assert.equal(
    r.text("Authorization: Bearer sk-live-123456"),
    "Authorization: Bearer ${API_TOKEN}",
  );
  assert.deepEqual(r.json({ authorization: "Bearer sk-live-123456" }), {
    authorization: "Bearer ${API_TOKEN}",
  });
});

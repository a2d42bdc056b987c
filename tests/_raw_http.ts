/**
 * HTTP/1.1 spoken by hand on a real socket, for tests of what a listener does
 * with what no polite client sends: a body of 100 MB streamed without holding
 * it, a head sent halfway and left.
 *
 * @module
 */

/** Where to connect: a TCP port on 127.0.0.1, or a unix socket. */
export type RawTarget = { port: number } | { path: string };

/** Opens a connection to `target`. */
export async function rawConnect(target: RawTarget): Promise<Deno.Conn> {
  return "port" in target
    ? await Deno.connect({ hostname: "127.0.0.1", port: target.port })
    : await Deno.connect({ path: target.path, transport: "unix" });
}

/** Reads `conn` to its end or until `deadlineMs` passes; the text read and whether it ended. */
export async function readToEnd(
  conn: Deno.Conn,
  deadlineMs: number,
): Promise<{ text: string; ended: boolean }> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) =>
    timer = setTimeout(() => resolve("late"), deadlineMs)
  );
  try {
    for (;;) {
      const n = await Promise.race([conn.read(buffer).catch(() => null), late]);
      if (n === "late") return { text: new TextDecoder().decode(concat(chunks)), ended: false };
      if (n === null) return { text: new TextDecoder().decode(concat(chunks)), ended: true };
      chunks.push(buffer.slice(0, n));
    }
  } finally {
    clearTimeout(timer);
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) out.set(c, at), at += c.length;
  return out;
}

/** The status code of a raw response's text (0 when there is none). */
export function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

/** The JSON body of a raw response's text (chunked bodies of one chunk only). */
export function bodyOf(text: string): unknown {
  const body = text.slice(text.indexOf("\r\n\r\n") + 4);
  const json = body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1);
  return JSON.parse(json);
}

/**
 * POSTs `bytes` zero bytes to `path`: with a `Content-Length` when `chunked`
 * is false, else chunk by chunk. The body is made of one 64 KiB chunk sent
 * again and again, so the test never holds it; sending stops as soon as the
 * listener answers or closes.
 *
 * @returns The response's text.
 */
export async function postLarge(
  target: RawTarget,
  path: string,
  bytes: number,
  options: { chunked: boolean; headers?: Record<string, string> },
): Promise<string> {
  const conn = await rawConnect(target);
  try {
    const extra = Object.entries(options.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("");
    const framing = options.chunked
      ? "transfer-encoding: chunked\r\n"
      : `content-length: ${bytes}\r\n`;
    await conn.write(
      new TextEncoder().encode(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1${
          "port" in target ? `:${target.port}` : ""
        }\r\ncontent-type: application/json\r\n${extra}${framing}\r\n`,
      ),
    );
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const frame = options.chunked
      ? new Uint8Array([
        ...new TextEncoder().encode(`${chunk.length.toString(16)}\r\n`),
        ...chunk,
        13,
        10,
      ])
      : chunk;
    // The answer is read while the body is sent; sending stops once its head has come.
    let text = "";
    const whole = () => /\r\n\r\n[\s\S]*\}/.test(text);
    const { promise: done, resolve } = Promise.withResolvers<void>();
    (async () => {
      const buffer = new Uint8Array(64 * 1024);
      for (;;) {
        const n = await conn.read(buffer).catch(() => null);
        if (n === null) return resolve();
        text += new TextDecoder().decode(buffer.subarray(0, n));
        if (whole()) return resolve();
      }
    })();
    const answered = () => text.includes("\r\n\r\n");
    for (let sent = 0; sent < bytes && !answered(); sent += chunk.length) {
      try {
        // A write may take part of what it is given: the rest follows, or the framing breaks.
        for (let at = 0; at < frame.length;) at += await conn.write(frame.subarray(at));
      } catch {
        break; // the listener closed: its answer is read below
      }
    }
    if (options.chunked && !answered()) {
      await conn.write(new TextEncoder().encode("0\r\n\r\n")).catch(() => 0);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([done, new Promise((r) => timer = setTimeout(r, 120_000))]);
    clearTimeout(timer);
    return text;
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

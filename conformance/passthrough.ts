/**
 * Runs `servePassthrough()` (cli/serve_passthrough.ts) the way
 * `mcpx serve --passthrough <namespace> [--http --address A --port P]`
 * will, for the conformance server leg (conformance/server_leg.ts) and for
 * trying it by hand:
 * `deno run -A conformance/passthrough.ts <namespace> [--config FILE] [--http PORT]`.
 * Over HTTP the URL is said on stderr (`mcpx: serving <ns> at <url>`).
 *
 * @module
 */

import { CliContext } from "../cli/context.ts";
import { servePassthrough } from "../cli/serve_passthrough.ts";
import { processIo } from "../core/io.ts";

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const configPath = flag("--config");
  const port = flag("--http");
  const [namespace] = args;
  if (!namespace) {
    console.error("usage: passthrough.ts <namespace> [--config FILE] [--http PORT]");
    Deno.exit(2);
  }
  const ctx = new CliContext({
    io: processIo,
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    flags: {},
    ...(configPath ? { configPath } : {}),
  });
  Deno.exit(
    await servePassthrough(ctx, namespace, {
      ...(port !== undefined ? { http: { address: "127.0.0.1", port: Number(port) } } : {}),
    }),
  );
}

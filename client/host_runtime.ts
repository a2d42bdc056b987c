/**
 * The host runtime the generated client runs under (deno, bun or node ≥ 22.6,
 * spec 000, "Runtime portability"): its globals, its environment, and where
 * the client writes. Every other runtime module reaches the host through this
 * one, so none touches `Deno` or `process` unguarded.
 *
 * Inlined into the client by client/bundle.ts (listed in
 * client/client_file.ts `RUNTIME_INPUTS`): no imports, no name another
 * inlined module declares.
 *
 * @module
 */

/** A host object whose shape differs between runtimes (`Deno`, `process`, V8's call sites). */
// deno-lint-ignore no-explicit-any
export type Loose = any;

/** `globalThis.Deno`, or undefined under bun and node. */
export const rtDeno: Loose = (globalThis as Loose).Deno;
// Under Deno, merely reading `globalThis.process` loads its Node compatibility
// layer (~10 ms measured), so `process` is used only where Deno is absent.
/** `globalThis.process` where Deno is absent (bun, node); undefined under Deno. */
export const rtProcess: Loose = rtDeno ? undefined : (globalThis as Loose).process;
const rtEncoder = new TextEncoder();

/**
 * One environment variable, through `Deno.env` or `process.env`, whichever exists.
 *
 * @param name The variable.
 * @returns Its value; undefined when unset, or when Deno runs without `--allow-env`.
 */
export function rtEnv(name: string): string | undefined {
  if (rtDeno?.env) {
    try {
      return rtDeno.env.get(name);
    } catch {
      return undefined; // no --allow-env: behave as unset
    }
  }
  return rtProcess?.env?.[name];
}

function rtWriteAll(stream: Loose, text: string): void {
  const bytes = rtEncoder.encode(text);
  for (let written = 0; written < bytes.length;) {
    written += stream.writeSync(bytes.subarray(written));
  }
}

/**
 * Where the client writes: stdout (results, `emit`) and stderr (records).
 * Synchronous where the runtime allows, so records never reorder against the
 * script's own output. Replaceable for tests.
 *
 * @internal
 */
export const runtimeIo: { out(text: string): void; err(text: string): void } = {
  out(text) {
    if (rtDeno?.stdout) rtWriteAll(rtDeno.stdout, text);
    else rtProcess.stdout.write(text);
  },
  err(text) {
    if (rtDeno?.stderr) rtWriteAll(rtDeno.stderr, text);
    else rtProcess.stderr.write(text);
  },
};

/**
 * Sets the exit code the process ends with (`Deno.exitCode`, `process.exitCode`).
 *
 * @param code The exit code (1 for a failed run).
 */
export function setExitCode(code: number): void {
  if (rtDeno && "exitCode" in rtDeno) rtDeno.exitCode = code;
  else if (rtProcess) rtProcess.exitCode = code;
}

/**
 * Which JavaScript runtime runs a script, and the command line that starts
 * it: deno (the one mcpx itself runs on, so always present), else bun, else
 * node 22.6+ (type stripping). Source: spec 000, "Runtime portability".
 *
 * @module
 */

/** A runtime mcpx can start a script on. */
export type RuntimeName = "deno" | "bun" | "node";

/** A runtime found on this machine. */
export interface Runtime {
  name: RuntimeName;
  /** The executable's absolute path. */
  path: string;
}

/** Finds `name` on `PATH`, or null. */
export function onPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? "").split(":")) {
    if (!dir) continue;
    const candidate = `${dir}/${name}`;
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && (info.mode ?? 0o111) & 0o111) return candidate;
    } catch { /* not here */ }
  }
  return null;
}

/** Node's version as [major, minor], or null when it does not answer. */
async function nodeVersion(path: string): Promise<[number, number] | null> {
  try {
    const out = await new Deno.Command(path, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    const m = new TextDecoder().decode(out.stdout).match(/v(\d+)\.(\d+)/);
    return m ? [Number(m[1]), Number(m[2])] : null;
  } catch {
    return null;
  }
}

/**
 * The runtime for a run: `wanted` (from `--runtime` / `script.runtime`), or
 * deno for `auto`.
 *
 * @param wanted `auto`, `deno`, `bun` or `node`.
 * @param env The caller's environment (its `PATH` is searched).
 * @returns The runtime, or a problem sentence naming what is missing and the fix.
 */
export async function findRuntime(
  wanted: string,
  env: Record<string, string>,
): Promise<Runtime | { problem: string }> {
  if (wanted === "auto" || wanted === "deno") return { name: "deno", path: Deno.execPath() };
  if (wanted === "bun") {
    const path = onPath("bun", env.PATH);
    return path ? { name: "bun", path } : {
      problem:
        "--runtime bun: no bun on PATH; install it (npm install -g bun) or use --runtime deno",
    };
  }
  if (wanted === "node") {
    const path = onPath("node", env.PATH);
    if (!path) {
      return {
        problem: "--runtime node: no node on PATH; install Node.js 22.6+ or use --runtime deno",
      };
    }
    const version = await nodeVersion(path);
    if (!version || version[0] < 22 || (version[0] === 22 && version[1] < 6)) {
      return {
        problem: `--runtime node: ${path} is ${
          version ? `v${version.join(".")}` : "of an unknown version"
        }, and scripts need 22.6 or later (type stripping); upgrade Node or use --runtime deno`,
      };
    }
    return { name: "node", path };
  }
  return { problem: `--runtime must be deno, bun or node, got "${wanted}"` };
}

/**
 * Deno's permission flags for `script.permissions`: `all` is `-A`, `none`
 * nothing, else a comma list of `read`, `write`, `net`, `env`, `run`, `sys`,
 * `ffi` (each `--allow-<name>`). The daemon's socket and the launcher's
 * files are always allowed, so the client works under any list (and, in
 * `always.sys`, the user id the client compares the socket directory's
 * owner with: `uid`).
 *
 * @returns The flags, or a problem sentence.
 */
export function permissionFlags(
  setting: string,
  always: { read: string[]; write: string[]; net?: string[]; sys?: string[] },
): string[] | { problem: string } {
  const value = setting.trim();
  if (value === "" || value === "all") return ["-A"];
  const known = ["read", "write", "net", "env", "run", "sys", "ffi", "import"];
  const names = value === "none" ? [] : value.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) {
    return {
      problem: `script.permissions: unknown ${unknown.map((u) => `"${u}"`).join(", ")}; use all, ` +
        `none, or a comma list of ${known.join(", ")}`,
    };
  }
  const flags = names.map((n) => `--allow-${n}`);
  if (!names.includes("read")) flags.push(`--allow-read=${always.read.join(",")}`);
  if (!names.includes("write")) flags.push(`--allow-write=${always.write.join(",")}`);
  if (!names.includes("net") && always.net?.length) {
    flags.push(`--allow-net=${always.net.join(",")}`);
  }
  if (!names.includes("sys") && always.sys?.length) {
    flags.push(`--allow-sys=${always.sys.join(",")}`);
  }
  if (!names.includes("env")) flags.push("--allow-env");
  return flags;
}

/**
 * The command line that runs `entry` with `args` on `runtime`.
 *
 * @param permissions Deno's permission flags (ignored by bun and node).
 */
export function runtimeArgs(
  runtime: Runtime,
  entry: string,
  args: string[],
  permissions: string[],
): string[] {
  switch (runtime.name) {
    case "deno":
      return ["run", "--no-check", "--quiet", ...permissions, entry, ...args];
    case "bun":
      return ["run", entry, ...args];
    case "node":
      return [
        "--experimental-strip-types",
        "--disable-warning=ExperimentalWarning",
        entry,
        ...args,
      ];
  }
}

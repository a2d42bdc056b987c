/**
 * `script.permissions`: what a script may do, parsed once, and — declared
 * here, once — how each runtime withholds what a level leaves out. A level a
 * runtime cannot enforce is refused before anything starts, never ignored
 * (issue 9, "The script sandbox means what it says"; decision 0016; spec 004,
 * the paragraph on `script.permissions`). The table in docs/scripts.md is
 * rendered from {@link WITHHOLDING} and held to it by a test.
 *
 * What the sandbox itself mounts is runner/sandbox.ts; the runtimes' own
 * flags are runner/runtime.ts.
 *
 * @module
 */

import type { RuntimeName } from "./runtime_name.ts";

/** The names a level may list (Deno's permission names, which mcpx keeps for every runtime). */
export const PERMISSIONS = ["read", "write", "net", "env", "run", "sys", "ffi", "import"] as const;

/** One permission a level may grant. */
export type Permission = typeof PERMISSIONS[number];

/**
 * A parsed `script.permissions`: `all` (no sandbox, every runtime's defaults),
 * or the permissions granted (none for `none`); everything else is withheld.
 */
export type PermissionLevel =
  | { readonly all: true; readonly text: "all" }
  | { readonly all: false; readonly granted: ReadonlySet<Permission>; readonly text: string };

/**
 * Parses the setting: `all` (or empty), `none`, or a comma list of
 * {@link PERMISSIONS}.
 *
 * @returns The level, or a problem sentence naming the unknown names and the accepted ones.
 */
export function parsePermissions(setting: string): PermissionLevel | { problem: string } {
  const value = setting.trim();
  if (value === "" || value === "all") return { all: true, text: "all" };
  const names = value === "none" ? [] : value.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(PERMISSIONS as readonly string[]).includes(n));
  if (unknown.length) {
    return {
      problem: `script.permissions: unknown ${unknown.map((u) => `"${u}"`).join(", ")}; use all, ` +
        `none, or a comma list of ${PERMISSIONS.join(", ")}`,
    };
  }
  const granted = new Set(names as Permission[]);
  return { all: false, granted, text: granted.size ? [...granted].join(",") : "none" };
}

/**
 * How one runtime withholds one permission: `by` says what does it (null:
 * nothing can, so a level withholding it is refused); `onlyWithout` names a
 * permission that must be withheld too for it to hold (bun fetches remote
 * modules over the network it is given).
 */
export interface Withholding {
  by: string | null;
  onlyWithout?: Permission;
}

const SANDBOX_FILES = "the sandbox shows only the script's folder, its launcher and client";

/**
 * What each runtime does with a withheld permission, inside the sandbox
 * (runner/sandbox.ts). Checked: Deno 2.9.6 flags; node 22.23 `--permission`
 * (restricts files, child processes, workers, addons and WASI — not the
 * network nor the environment); bun 1.4 has no permission model at all.
 */
export const WITHHOLDING: Readonly<Record<RuntimeName, Readonly<Record<Permission, Withholding>>>> =
  {
    deno: {
      read: {
        by: `Deno refuses to read other files, and ${SANDBOX_FILES}, Deno's module cache ` +
          "and the system's programs, so an import of any other file fails too",
      },
      write: { by: "Deno refuses to write files; the sandbox is read-only but for a private /tmp" },
      net: { by: "Deno refuses network access, and the sandbox has no network" },
      env: {
        by: "`Deno.env` reads only `MCPX_*`, `GIT_DIR` and `GIT_WORK_TREE` (the variables " +
          "are still inherited)",
      },
      run: { by: "Deno refuses to start programs" },
      sys: {
        by: "Deno refuses system information (`Deno.hostname()`, `osRelease()`, …) but the " +
          "user's id",
      },
      ffi: { by: "Deno refuses native libraries" },
      import: {
        by: "remote modules only from Deno's default hosts (deno.land, jsr.io, esm.sh, …)",
      },
    },
    node: {
      read: { by: `node's \`--permission\` refuses other files, and ${SANDBOX_FILES}` },
      write: {
        by: "node's `--permission` refuses writes, and the sandbox is read-only but for a " +
          "private /tmp",
      },
      net: { by: "the sandbox has no network" },
      env: { by: null },
      run: { by: "node's `--permission` refuses child processes" },
      sys: { by: null },
      ffi: { by: "node's `--permission` refuses native addons and WASI" },
      import: { by: "node loads no remote modules" },
    },
    bun: {
      read: { by: `${SANDBOX_FILES} and the system's programs` },
      write: { by: "the sandbox is read-only but for a private /tmp" },
      net: { by: "the sandbox has no network", onlyWithout: "import" },
      env: { by: null },
      run: { by: null },
      sys: { by: null },
      ffi: { by: null },
      import: { by: "the sandbox has no network to fetch them from", onlyWithout: "net" },
    },
  };

const WHAT: Record<Permission, string> = {
  read: "reading files",
  write: "writing files",
  net: "the network",
  env: "environment variables",
  run: "starting programs",
  sys: "system information",
  ffi: "native code",
  import: "remote modules",
};

/**
 * The permissions `level` withholds that `runtime` cannot withhold.
 *
 * @returns Empty when the runtime enforces the whole level (always for `all`).
 */
export function unenforceable(level: PermissionLevel, runtime: RuntimeName): Permission[] {
  if (level.all) return [];
  return PERMISSIONS.filter((p) => {
    if (level.granted.has(p)) return false;
    const rule = WITHHOLDING[runtime][p];
    return rule.by === null || (rule.onlyWithout !== undefined &&
      level.granted.has(rule.onlyWithout));
  });
}

/**
 * The refusal of a level `runtime` cannot enforce: the level, the runtime,
 * what it cannot withhold, and the fixes (grant those, run under deno, or `all`).
 *
 * @param runtimeSource Where the runtime was chosen, e.g. `--runtime node`.
 * @returns null when the runtime enforces the whole level.
 */
export function refusal(
  level: PermissionLevel,
  runtime: RuntimeName,
  runtimeSource: string,
): string | null {
  if (level.all) return null;
  const missing = unenforceable(level, runtime);
  if (!missing.length) return null;
  const wider = [...level.granted, ...missing].join(",");
  return `script.permissions "${level.text}" cannot be enforced under ${runtimeSource}: ` +
    `${runtime} cannot withhold ${missing.map((p) => `${p} (${WHAT[p]})`).join(", ")}; grant ${
      missing.length > 1 ? "them" : "it"
    } (script.permissions ${wider}), run the ` +
    "script under deno (--runtime deno), or set script.permissions to all";
}

/**
 * The Markdown table of what withholding each permission does under each
 * runtime (docs/scripts.md holds a copy; a test keeps them equal).
 */
export function withholdingTable(): string {
  const runtimes: RuntimeName[] = ["deno", "node", "bun"];
  const rows = PERMISSIONS.map((p) => [
    `\`${p}\` (${WHAT[p]})`,
    ...runtimes.map((rt) => {
      const rule = WITHHOLDING[rt][p];
      if (rule.by === null) return "cannot: refused";
      return rule.onlyWithout
        ? `${rule.by}; refused when \`${rule.onlyWithout}\` is granted`
        : rule.by;
    }),
  ]);
  const header = ["withheld", ...runtimes];
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

/**
 * The peer: mcporter from npm, installed once into `bench/.peer/` (never
 * globally) and run as `node <bin>` with the machine's node. A bench calls
 * {@link choosePeer}, which honours `--skip-peer`.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { log } from "./_cli.ts";

/** The mcporter release the bench compares against. */
export const PEER_PACKAGE = "mcporter";
export const PEER_VERSION = "0.12.3";

/** Where the peer is installed (gitignored). */
export const PEER_DIR = fileURLToPath(new URL("./.peer/", import.meta.url));

/** A usable peer install. */
export interface Peer {
  version: string;
  /** Absolute path of the package's `bin` script. */
  bin: string;
  node: string;
  nodeVersion: string;
  /** The package's `engines.node`, when it declares one. */
  engines?: string;
  /** The exact install command, for the record. */
  installCommand: string;
}

async function run(program: string, args: string[], cwd?: string) {
  const out = await new Deno.Command(program, { args, cwd, stdin: "null" }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { ok: out.success, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/**
 * Installs (if needed) and locates the peer.
 *
 * @returns The peer, or why it cannot run.
 */
export async function preparePeer(log: (line: string) => void): Promise<Peer | string> {
  const installCommand =
    `npm install --prefix ${PEER_DIR} --no-audit --no-fund --loglevel=error ${PEER_PACKAGE}@${PEER_VERSION}`;
  let node;
  try {
    node = await run("node", ["--version"]);
  } catch {
    return "node is not on PATH";
  }
  const pkgPath = `${PEER_DIR}node_modules/${PEER_PACKAGE}/package.json`;
  const readPkg = async () => {
    try {
      return JSON.parse(await Deno.readTextFile(pkgPath));
    } catch {
      return undefined;
    }
  };
  let pkg = await readPkg();
  if (pkg?.version !== PEER_VERSION) {
    log(`installing ${PEER_PACKAGE}@${PEER_VERSION} into ${PEER_DIR} …`);
    await Deno.mkdir(PEER_DIR, { recursive: true });
    let out;
    try {
      out = await run("npm", [
        "install",
        "--prefix",
        PEER_DIR,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `${PEER_PACKAGE}@${PEER_VERSION}`,
      ]);
    } catch {
      return "npm is not on PATH";
    }
    if (!out.ok) return `npm install failed: ${out.stderr.split("\n").slice(-3).join(" ")}`;
    pkg = await readPkg();
    if (pkg?.version !== PEER_VERSION) return `npm did not install ${PEER_PACKAGE}@${PEER_VERSION}`;
  }
  const binRel = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.[PEER_PACKAGE];
  if (!binRel) return `${PEER_PACKAGE} declares no bin`;
  return {
    version: pkg.version,
    bin: `${PEER_DIR}node_modules/${PEER_PACKAGE}/${binRel.replace(/^\.\//, "")}`,
    node: "node",
    nodeVersion: node.stdout,
    engines: pkg.engines?.node,
    installCommand,
  };
}

/** True when `version` (`v20.1.2`) is at least `min` (`22.12.0`). */
export function atLeast(version: string, min: string): boolean {
  const a = version.replace(/^v/, "").split(".").map(Number);
  const b = min.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** The peer installed and located, or why it is not measured (`--skip-peer`, no node, …). */
export async function choosePeer(
  skip: boolean | undefined,
  opts: { logUnavailable?: boolean } = {},
): Promise<{ peer?: Peer; problem?: string }> {
  if (skip) return { problem: "skipped (--skip-peer)" };
  const prepared = await preparePeer(log);
  if (typeof prepared !== "string") return { peer: prepared };
  if (opts.logUnavailable) log(`peer unavailable: ${prepared}`);
  return { problem: prepared };
}

/** A note when the machine's node is older than the peer's `engines.node`, ending with `after`. */
export function enginesNote(peer: Peer, after: string): string | undefined {
  if (!peer.engines || atLeast(peer.nodeVersion, peer.engines.replace(/^[>=^~ ]+/, ""))) {
    return undefined;
  }
  return `mcporter ${peer.version} declares engines.node ${peer.engines}; this machine's node is ` +
    `${peer.nodeVersion}. ${after}`;
}

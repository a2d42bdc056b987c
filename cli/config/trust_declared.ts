/**
 * What a project's own declarations run, for `mcpx trust` to show beside its
 * servers: each adapter its `paths.adapters` declares (the program and each
 * tool's fixed arguments) and each API its `paths.apis` declares (the
 * document and the address requests go to). Trust covers these files
 * (config/declaration_digest.ts), so the person trusting must see them; the
 * user's own declarations are not the project's and are not shown.
 *
 * Nothing is fetched: an API document named by URL is shown as that URL.
 * `${VAR}` references are shown as written, never expanded.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import { declarationPlaces } from "../../config/declaration_digest.ts";
import { type Declaration, readDeclarations } from "../../config/derived_servers.ts";
import { parseAdapter } from "../../config/adapter.ts";
import { projectSettings } from "../../config/trust.ts";
import { dirname, isAbsolute, resolve } from "../../core/posix_path.ts";

/** One declared item of a project, as `mcpx trust` shows it. */
export interface DeclaredRun {
  /** `adapter` or `API`. */
  kind: string;
  name: string;
  /** The declaration file. */
  file: string;
  /** What it runs or where it sends requests, one line. */
  runs: string;
}

/**
 * The adapters and APIs a project's configuration declares through its own
 * `paths.adapters` / `paths.apis`, each with what it runs.
 *
 * @param document The project's configuration as written.
 * @param file Its path (relative places resolve against its directory).
 * @param home The home directory (`~/` in a place).
 * @returns In kind, file and list order; a place or file that cannot be read is one row whose
 *   `runs` says so (so the person sees that something is declared there).
 */
export async function declaredRuns(
  document: Record<string, unknown>,
  file: string,
  home?: string,
): Promise<DeclaredRun[]> {
  const out: DeclaredRun[] = [];
  for (const found of declarationPlaces(projectSettings(document), file, home)) {
    const what = found.kind.what;
    if ("problem" in found) {
      out.push({ kind: what, name: "?", file, runs: `cannot be read: ${found.problem}` });
      continue;
    }
    for (const declarationFile of found.files) {
      let declarations: Declaration[];
      try {
        declarations = await readDeclarations(found.kind.kind, [declarationFile]);
      } catch (error) {
        out.push({
          kind: what,
          name: "?",
          file: declarationFile,
          runs: `cannot be read: ${firstLine(error)}`,
        });
        continue;
      }
      for (const d of declarations) {
        out.push({
          kind: what,
          name: d.name,
          file: d.file,
          runs: d.kind === "adapters" ? adapterRuns(d) : await apiRuns(d),
        });
      }
    }
  }
  return out;
}

/** `git log --oneline; git status` with where it runs, or what is wrong with the item. */
function adapterRuns(d: Declaration): string {
  const command = typeof d.item.command === "string" ? d.item.command : "(no command)";
  const cwd = typeof d.item.cwd === "string"
    ? (isAbsolute(d.item.cwd) ? d.item.cwd : resolve(dirname(d.file), d.item.cwd))
    : dirname(d.file);
  try {
    const adapter = parseAdapter(d);
    const lines = adapter.tools.map((t) =>
      [adapter.command, ...t.args].map(quote).join(" ") + (t.params.length ? " …" : "")
    );
    return `${lines.join("; ") || quote(adapter.command)} (in ${cwd})`;
  } catch (error) {
    return `${quote(command)} (in ${cwd}); its declaration is invalid: ${firstLine(error)}`;
  }
}

/** `spec <document>, base URL <url>`: where its operations' requests go. */
async function apiRuns(d: Declaration): Promise<string> {
  const spec = typeof d.item.spec === "string" ? d.item.spec : undefined;
  if (spec === undefined) return "(no spec)";
  const remote = /^[a-z][a-z0-9+.-]*:\/\//i.test(spec);
  const location = remote || isAbsolute(spec) ? spec : resolve(dirname(d.file), spec);
  if (typeof d.item.baseUrl === "string") {
    return `spec ${location}, base URL ${d.item.baseUrl}`;
  }
  if (remote) return `spec ${location}, base URL as that document's servers say`;
  return `spec ${location}, base URL ${await documentBase(location)}`;
}

/** The first server URL of a local OpenAPI document, or why there is none to show. */
async function documentBase(path: string): Promise<string> {
  let doc: unknown;
  try {
    doc = parseYaml(await Deno.readTextFile(path));
  } catch (error) {
    return `unknown (the document cannot be read: ${firstLine(error)})`;
  }
  const servers = (doc as { servers?: unknown } | null)?.servers;
  const urls = Array.isArray(servers)
    ? servers.flatMap((s) => typeof s?.url === "string" ? [s.url as string] : [])
    : [];
  if (urls.length === 0) return "none (the document names no servers)";
  return urls[0] + (urls.length > 1 ? ` (first of ${urls.length} servers)` : "");
}

/** A word as a shell would need it: quoted when it holds anything but plain characters. */
function quote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

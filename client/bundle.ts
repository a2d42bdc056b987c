/**
 * Inlines a module and the repository modules it imports into one
 * self-contained module: how `client/script_runtime.ts` becomes the runtime
 * half of every generated `mcpx-client.ts` (decision 0004).
 *
 * Deliberately small, because its inputs are ours: every relative import is
 * one statement (`import { a, b } from "../x.ts";`, `import type …`), no
 * import is renamed, and no two inlined modules declare the same top-level
 * name (checked). Dependencies come first, in the order first imported, with
 * `export` dropped; the entry module keeps its exports.
 *
 * @module
 */

/** One module's source, by its file URL. */
export type ReadSource = (url: URL) => Promise<string>;

const IMPORT = /^import\s+(type\s+)?([\s\S]*?)\s+from\s+["'](\.{1,2}\/[^"']+)["'];?[ \t]*\n/gm;
const BARE_IMPORT = /^import\s+["'](\.{1,2}\/[^"']+)["'];?/m;
/** A top-level declaration; group 1 is its name. */
export const DECLARATION =
  /^(?:export\s+)?(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;

/**
 * Bundles `entry` and its relative imports into one module text.
 *
 * @param entry File URL of the entry module.
 * @param read How to read a module (default: `Deno.readTextFile`).
 * @returns The module text: each inlined module under a `// ---- <path> ----` line.
 * @throws {Error} When an import renames (`a as b`), is bare (`import "./x.ts"`),
 *   or two modules declare the same top-level name.
 */
export async function bundleModule(
  entry: URL,
  read: ReadSource = (url) => Deno.readTextFile(url),
): Promise<string> {
  const order: URL[] = [];
  const texts = new Map<string, string>();
  const visit = async (url: URL, stack: string[]): Promise<void> => {
    if (texts.has(url.href)) return;
    if (stack.includes(url.href)) {
      throw new Error(`import cycle: ${[...stack, url.href].join(" → ")}`);
    }
    const text = await read(url);
    const bare = BARE_IMPORT.exec(text);
    if (bare) throw new Error(`${url.pathname}: a bare import of ${bare[1]} cannot be inlined`);
    const deps: URL[] = [];
    for (const m of text.matchAll(IMPORT)) {
      if (/\bas\b/.test(m[2])) {
        throw new Error(`${url.pathname}: a renamed import cannot be inlined: ${m[0].trim()}`);
      }
      deps.push(new URL(m[3], url));
    }
    for (const dep of deps) await visit(dep, [...stack, url.href]);
    texts.set(url.href, text.replace(IMPORT, ""));
    order.push(url);
  };
  await visit(entry, []);

  const declaredIn = new Map<string, string>();
  const parts: string[] = [];
  for (const url of order) {
    let text = texts.get(url.href)!;
    const name = url.pathname.split("/").slice(-2).join("/");
    for (const m of text.matchAll(DECLARATION)) {
      const other = declaredIn.get(m[1]);
      // An interface may be declared twice in one module (merging); not across modules.
      if (other && other !== name) {
        throw new Error(`"${m[1]}" is declared in both ${other} and ${name}; rename one`);
      }
      declaredIn.set(m[1], name);
    }
    if (url.href !== entry.href) text = text.replace(/^export\s+(?!\{)/gm, "");
    if (url.href !== entry.href) text = text.replace(/^export\s+\{[^}]*\}[^\n]*\n/gm, "");
    parts.push(`// ---- ${name} ----\n${text.trim()}\n`);
  }
  return parts.join("\n");
}

/**
 * The names a completion offers for one kind (ops/op.ts `Completion`): what
 * `mcpx completion-words` answers and what `mcpx serve` completes resource
 * template variables with (cli/serve/serve_resources.ts). Read from files only —
 * the schema cache without listing a server that is not cached, the script
 * folders and the named-sessions file — so it answers while a person waits
 * on <Tab>, and starts no server and no daemon.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { InputOf } from "../../ops/op.ts";
import type { completionWords } from "../../ops/meta_ops.ts";

/**
 * The names of one kind, in the order their source lists them, each once.
 *
 * @param ctx The command's context (configuration, profile selection, paths).
 * @param kind `namespace`, `tool` (`ns.tool`, the tool's identifier),
 *   `namespace-or-tool` (both), `script` (named scripts reachable from the
 *   working directory), `session` (this configuration's named sessions) or
 *   `setting` (every setting's dotted name, plumbing ones left out).
 * @returns The names; none when the configuration has nothing of that kind.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function wordsOf(
  ctx: CliContext,
  kind: InputOf<typeof completionWords>["kind"],
): Promise<string[]> {
  switch (kind) {
    case "namespace":
    case "tool":
    case "namespace-or-tool": {
      const { namespaces } = await ctx.namespaces({
        listMissing: false,
        optional: true,
        schemas: false,
      });
      const names = kind === "tool" ? [] : namespaces.map((n) => n.namespace);
      if (kind !== "namespace") {
        for (const n of namespaces) names.push(...n.tools.map((t) => `${n.namespace}.${t.fn}`));
      }
      return unique(names);
    }
    case "script": {
      const { listScripts } = await import("../../scripts/list.ts");
      return unique((await listScripts(await ctx.scriptDirs())).map((s) => s.name));
    }
    case "session": {
      const { readSessions, sessionsPath } = await import("../../engine/sessions.ts");
      const config = await ctx.config();
      return unique(
        readSessions(sessionsPath(ctx.paths().stateDir, config.fingerprint)).map((s) => s.name),
      );
    }
    case "setting": {
      const { renderSchema } = await import("../../config/setting_schema.ts");
      return renderSchema().map((s) => s.name);
    }
  }
}

function unique(words: string[]): string[] {
  return [...new Set(words)];
}

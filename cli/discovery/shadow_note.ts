/**
 * The `note:` that a project's configuration hides other files' servers
 * (config/shadowed.ts): `ls`, `search` and an unknown namespace's error print
 * it on stderr, so the user's servers never vanish without a word (issue 24).
 *
 * @module
 */

import type { SettingsContext } from "../context_settings.ts";
import { type ShadowedConfig, shadowNote } from "../../config/shadowed.ts";

/**
 * The files a nearer configuration shadows and the note that says so, for a
 * handler to answer (the list as data, the sentence as a note: ops/outcome.ts
 * `notes`).
 *
 * @param ctx The command's context (its configuration and search).
 * @returns The shadowed files, nearest first, and the note; no files and no
 *   note when none is shadowed (or the search fails: the command reports its
 *   own configuration errors).
 */
export async function shadowing(
  ctx: SettingsContext,
): Promise<{ shadowed: ShadowedConfig[]; note?: string }> {
  try {
    const shadowed = await ctx.shadowedConfigs();
    const inUse = (await ctx.loadedConfig()).path;
    return shadowed.length && inUse ? { shadowed, note: shadowNote(inUse, shadowed) } : {
      shadowed,
    };
  } catch {
    return { shadowed: [] };
  }
}

/**
 * Prints the note when files are shadowed, and answers them.
 *
 * @param ctx The command's context (its configuration and search).
 * @returns The shadowed files, nearest first; empty when none (or the search fails).
 */
export async function noteShadowed(ctx: SettingsContext): Promise<ShadowedConfig[]> {
  const { shadowed, note } = await shadowing(ctx);
  if (note) ctx.io.err(`note: ${note}\n`);
  return shadowed;
}

/**
 * The sentence {@link noteShadowed} prints, for a handler to answer as a note
 * (ops/outcome.ts `notes`); undefined when no file is shadowed.
 */
export async function shadowedNote(ctx: SettingsContext): Promise<string | undefined> {
  return (await shadowing(ctx)).note;
}

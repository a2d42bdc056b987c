/**
 * The `note:` that a project's configuration hides other files' servers
 * (config/shadowed.ts): `ls`, `search` and an unknown namespace's error print
 * it on stderr, so the user's servers never vanish without a word (issue 24).
 *
 * @module
 */

import type { SettingsContext } from "./context_settings.ts";
import { type ShadowedConfig, shadowNote } from "../config/shadowed.ts";

/**
 * Prints the note when files are shadowed, and answers them.
 *
 * @param ctx The command's context (its configuration and search).
 * @returns The shadowed files, nearest first; empty when none (or the search fails:
 *   the command reports its own configuration errors).
 */
export async function noteShadowed(ctx: SettingsContext): Promise<ShadowedConfig[]> {
  let shadowed: ShadowedConfig[];
  let inUse: string | null;
  try {
    shadowed = await ctx.shadowedConfigs();
    inUse = (await ctx.loadedConfig()).path;
  } catch {
    return [];
  }
  if (shadowed.length && inUse) ctx.io.err(`note: ${shadowNote(inUse, shadowed)}\n`);
  return shadowed;
}

/**
 * The sentence {@link noteShadowed} prints, for a handler to answer as a note
 * (ops/outcome.ts `notes`); undefined when no file is shadowed.
 */
export async function shadowedNote(ctx: SettingsContext): Promise<string | undefined> {
  try {
    const shadowed = await ctx.shadowedConfigs();
    const inUse = (await ctx.loadedConfig()).path;
    return shadowed.length && inUse ? shadowNote(inUse, shadowed) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `mcpx help <topic>`: the sections of the agent's guide beyond its core loop,
 * one markdown file each in docs/topics/ (`<name>.md`, its first line
 * `# <title>`), printed as written. AGENTS.md holds the core loop and names
 * every topic (cli/help_topics_test.ts holds the two to each other).
 *
 * The files are read when `help` runs, relative to the checkout
 * (core/root.ts `ROOT_URL`, right from the sources and from
 * cli/mcpx.bundle.js alike), so the warm bundle carries this module's few
 * lines and none of the text (decision 0070).
 *
 * @module
 */

import { ROOT_URL } from "../core/root.ts";
import { UsageError } from "../core/errors.ts";
import { nearest } from "../core/nearest.ts";

/** The folder of the topics: docs/topics/ of the checkout. */
export const TOPICS_URL: URL = new URL("docs/topics/", ROOT_URL);

/** What a topic's name may be: lower-case words joined by `-` (so never a path). */
const TOPIC_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** One help topic. */
export interface HelpTopic {
  /** What `mcpx help` takes: the file's name without `.md` (`slow-tools`). */
  name: string;
  /** The file's first `# ` heading, without the `# `. */
  title: string;
}

/**
 * Every topic in `dir`, by name.
 *
 * @param dir The topics' folder (default {@link TOPICS_URL}).
 * @returns The topics sorted by name; none when the folder is missing.
 */
export async function helpTopics(dir: URL = TOPICS_URL): Promise<HelpTopic[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const name = entry.name.replace(/\.md$/, "");
      if (entry.isFile && name !== entry.name && TOPIC_NAME.test(name)) names.push(name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  names.sort();
  return await Promise.all(names.map(async (name) => {
    const text = await Deno.readTextFile(new URL(`${name}.md`, dir));
    return { name, title: text.match(/^# (.+)$/m)?.[1].trim() ?? name };
  }));
}

/**
 * The text of one topic: its file as written.
 *
 * @param name The topic's name (`slow-tools`).
 * @param commands The command words, for the error's list.
 * @param dir The topics' folder (default {@link TOPICS_URL}).
 * @returns The file's text, ending in a newline.
 * @throws {UsageError} When `name` is neither a topic nor a command: the word, the nearest
 *   names, and every topic and command.
 */
export async function topicText(
  name: string,
  commands: readonly string[],
  dir: URL = TOPICS_URL,
): Promise<string> {
  if (TOPIC_NAME.test(name)) {
    try {
      const text = await Deno.readTextFile(new URL(`${name}.md`, dir));
      return text.endsWith("\n") ? text : `${text}\n`;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  const topics = (await helpTopics(dir)).map((t) => t.name);
  const near = nearest(name, [...topics, ...commands]);
  throw new UsageError(
    [
      `"${name}" is neither a command nor a help topic` +
      (near.length ? `; did you mean ${near.join(" or ")}?` : ""),
      `topics: ${topics.length ? topics.join(", ") : `none (no ${decodeURI(dir.pathname)})`}`,
      `commands: ${commands.join(", ")}`,
    ].join("\n"),
  );
}

/**
 * The topics as `mcpx help` lists them after the commands: one line each,
 * name and title; empty when there are none.
 *
 * @param dir The topics' folder (default {@link TOPICS_URL}).
 */
export async function topicsSection(dir: URL = TOPICS_URL): Promise<string> {
  const topics = await helpTopics(dir);
  if (topics.length === 0) return "";
  const width = Math.max(...topics.map((t) => t.name.length));
  return [
    "",
    "topics (`mcpx help <topic>` prints one):",
    ...topics.map((t) => `  ${t.name.padEnd(width)}  ${t.title}`),
  ].join("\n") + "\n";
}

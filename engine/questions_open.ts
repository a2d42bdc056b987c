/**
 * Opens the process's question desk (engine/questions.ts) for a daemon, with
 * its settings; a store that cannot be opened leaves the desk closed (questions
 * are answered `cancel` at once, as before decision 0040) and says why in the log.
 *
 * @module
 */

import { describe } from "./error_text.ts";
import { log } from "./log.ts";
import { questionDesk } from "./questions.ts";

export { questionsPath } from "./questions_store.ts";

/**
 * @param path The store's file.
 * @param daemon The configuration's fingerprint.
 * @param settings The daemon's resolved settings (`elicit.timeout`, `elicit.inputRounds`).
 */
export function openQuestionDesk(
  path: string,
  daemon: string,
  settings: Record<string, unknown>,
): void {
  try {
    questionDesk.open(path, daemon, {
      timeoutMs: typeof settings["elicit.timeout"] === "number"
        ? settings["elicit.timeout"]
        : undefined,
      inputRounds: typeof settings["elicit.inputRounds"] === "number"
        ? settings["elicit.inputRounds"]
        : undefined,
    });
  } catch (error) {
    log(
      "warn",
      "question.store",
      "questions cannot be stored in {path} ({error}); servers' questions are answered cancel",
      {
        path,
        error: describe(error),
      },
    );
  }
}

/**
 * `mcpx doctor`'s check of damaged state (decision 0019, issue 24): a state
 * file that cannot be read, and the copies of damaged files mcpx moved aside
 * or kept (`<file>.damaged-<time>`, core/damaged_json.ts). Doctor reads and
 * never repairs: a damaged file is reported with the command that moves it
 * aside, and a copy with what it holds and how to be rid of it.
 *
 * @module
 */

import type { DoctorCheck, DoctorContext, Finding } from "./doctor_check.ts";
import { join } from "../../core/posix_path.ts";
import { existsSync } from "../../core/exists.ts";
import { isDamagedCopyName, parseSalvaging } from "../../core/damaged_json.ts";
import { databaseDamage } from "../../core/private_sqlite.ts";
import { QUESTION_COLUMNS, questionsPath } from "../../engine/questions_store.ts";
import { oauthDir, readEntryText } from "../../engine/oauth_store.ts";

/** The directories mcpx keeps state files in, each with what its files are. */
async function stateDirs(dc: DoctorContext): Promise<string[]> {
  const { stateDir, cacheDir } = dc.cli.paths();
  const logs = await dc.cli.logsDir().catch(() => join(stateDir, "logs"));
  const dirs = [stateDir, join(stateDir, "sessions"), oauthDir(stateDir), logs, cacheDir];
  for (const name of names(cacheDir)) {
    if (/^schemas-[0-9a-f]+$/.test(name)) dirs.push(join(cacheDir, name));
  }
  return dirs;
}

function names(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isFile || e.isDirectory).map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Damaged state files (read, never repaired) and the copies of damaged ones kept beside them. */
export const damagedStateCheck: DoctorCheck = {
  id: "damaged-state",
  title: "state files are readable",
  async run(dc) {
    const out: Finding[] = [];
    const logs = await dc.cli.logsDir().catch(() => undefined);
    const questions = logs ? questionsPath(logs) : undefined;
    if (questions && existsSync(questions)) {
      const why = databaseDamage(questions, { questions: QUESTION_COLUMNS });
      if (why) {
        out.push({
          status: "fail",
          subject: questions,
          message: `the questions store ${questions} is damaged (${why})`,
          fix: "run mcpx elicit list: it moves the file aside and starts the store empty " +
            "(the questions in it are lost)",
        });
      }
    }
    const tokens = oauthDir(dc.cli.paths().stateDir);
    for (const name of names(tokens).filter((n) => n.endsWith(".json"))) {
      const path = join(tokens, name);
      const read = readEntryText(Deno.readTextFileSync(path));
      const why = "why" in read ? read.why : undefined;
      if (why) {
        out.push({
          status: "fail",
          subject: path,
          message: `the OAuth token file ${path} is damaged (${why})`,
          fix:
            "run mcpx auth ls: it moves the file aside; then sign in again with mcpx auth <server>",
        });
      }
    }
    // Files whose readable part is kept (decision 0019): damaged, they are read in part, and the
    // original is copied beside them when mcpx next writes them.
    const { stateDir } = dc.cli.paths();
    const salvaged = [
      { what: "the trust store", path: join(stateDir, "trust.json") },
      ...names(join(stateDir, "sessions")).filter((n) => /^[0-9a-f]+\.json$/.test(n))
        .map((n) => ({ what: "the sessions file", path: join(stateDir, "sessions", n) })),
    ];
    for (const { what, path } of salvaged) {
      if (!existsSync(path) || !parseSalvaging(Deno.readTextFileSync(path)).damaged) continue;
      out.push({
        status: "warn",
        subject: path,
        message: `${what} ${path} is damaged (it is not whole JSON): mcpx uses what can be read ` +
          "of it, and keeps the original beside it when it next writes the file",
        fix: "nothing is needed; restore it from a backup if what was cut off matters",
      });
    }
    for (const dir of await stateDirs(dc)) {
      for (const name of names(dir)) {
        if (!isDamagedCopyName(name) || /-(journal|wal)$/.test(name)) continue;
        const path = join(dir, name);
        const original = path.slice(0, path.lastIndexOf(".damaged-"));
        out.push({
          status: "warn",
          subject: path,
          message: `${original} was found damaged; its bytes are kept as ${path} and the file ` +
            "was started again",
          fix: `look inside it if you need what it held, then delete it (rm '${path}'*)`,
        });
      }
    }
    if (!out.length) {
      out.push({ status: "ok", message: "no damaged state file, and no damaged copy kept" });
    }
    return out;
  },
};

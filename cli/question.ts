/**
 * What `mcpx call` and `mcpx elicit answer --wait` do when a server asks a
 * question during a call (decision 0040): print it with its schema in short
 * form and the exact command that answers it, and exit 75 (EX_TEMPFAIL,
 * core/errors.ts `EXIT.tempfail`); or, for a question routed to a person
 * when stdin and stderr are a terminal and `MCPX_INPUT` is not `report`
 * (spec 004), ask it inline and go on with the call.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { EXIT } from "../core/errors.ts";
import { printJson } from "./json_out.ts";
import type { QuestionView } from "../engine/question_view.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { VERSION } from "../core/version.ts";
import { checkAnswer, fieldsOf } from "../engine/question_form.ts";

/** An answer that is a question rather than a result. */
export function questionOf(answer: unknown): QuestionView | undefined {
  const a = answer as { question?: QuestionView; content?: unknown } | null;
  return a && typeof a === "object" && a.question && a.content === undefined
    ? a.question
    : undefined;
}

/** The question as text: who asks, why this route, its fields and the commands. */
export function questionText(q: QuestionView): string {
  const lines = [
    `question ${q.id} from ${q.namespace}${q.call ? ` during ${q.call}` : ""} (${q.kind}, ` +
    `for ${q.route === "agent" ? "you" : "a person"}: ${q.reason}):`,
  ];
  if (q.message) lines.push(...q.message.split("\n").map((l) => `  ${l}`));
  if (q.mode === "url" && typeof q.request.url === "string") lines.push(`  open: ${q.request.url}`);
  if (q.schema.length) lines.push("  fields:", ...q.schema.map((f) => `    ${f}`));
  if (q.route === "person") {
    lines.push(
      `  this is for a person to answer: ask the user to run \`${q.command}\` in a terminal ` +
        `(or \`${q.decline}\`)`,
    );
  } else {
    lines.push(`  answer:  ${q.command}   (key=value or one JSON object; defaults fill the rest)`);
    lines.push(`  decline: ${q.decline}`);
  }
  if (q.state === "open") {
    lines.push(
      `  the call waits in the daemon until ${new Date(q.deadline).toISOString()}; add --wait ` +
        "to the answer to print its result",
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * Prints a question the way a waiting call reports it, or asks it inline.
 * @returns The call's next answer when asked inline, else undefined after
 *   printing (the caller exits {@link EXIT.tempfail}).
 */
export async function handleQuestion(
  ctx: CliContext,
  q: QuestionView,
  socket?: string,
): Promise<unknown | undefined> {
  const send = (body: Record<string, unknown>) =>
    socket
      ? requestDaemon(socket, "questionAnswer", body, { version: VERSION })
      : ctx.request("questionAnswer", body);
  const inline = q.route === "person" && ctx.env.MCPX_INPUT !== "report" &&
    Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  if (inline) {
    ctx.io.err(questionText({ ...q, route: "agent" }).split("\n  answer:")[0] + "\n");
    const answer = askInline(ctx, q);
    if (answer === "decline") {
      return await send({ id: q.id, decline: true, wait: true });
    }
    return await send({ id: q.id, answer, tty: true, wait: true });
  }
  if (await ctx.json()) printJson(ctx.io, { question: q });
  else ctx.io.err(questionText(q));
  return undefined;
}

/**
 * Follows a call through its questions until it answers; the exit code.
 * @param socket The daemon that holds the call; default: the configuration's.
 */
export async function followQuestions(
  ctx: CliContext,
  answer: unknown,
  done: (result: unknown) => Promise<number> | number,
  socket?: string,
): Promise<number> {
  for (let q = questionOf(answer); q; q = questionOf(answer)) {
    const next = await handleQuestion(ctx, q, socket);
    if (next === undefined) return EXIT.tempfail;
    answer = next;
  }
  return await done(answer);
}

/** Reads each field at the terminal, checked, defaults offered; `decline` for an empty URL answer of `n`. */
function askInline(
  ctx: CliContext,
  q: QuestionView,
): Record<string, unknown> | "decline" {
  if (q.mode === "url" || q.kind === "sampling") {
    const line = prompt(q.mode === "url" ? "done in the browser? [y/N]" : "answer (text):");
    if (q.kind === "sampling") return { text: line ?? "" };
    return /^y/i.test(line ?? "") ? {} : "decline";
  }
  const schema = (q.request as { requestedSchema?: unknown }).requestedSchema;
  for (;;) {
    const given: Record<string, unknown> = {};
    for (const [name, f] of fieldsOf(schema)) {
      const dflt = f.default !== undefined ? ` [${JSON.stringify(f.default)}]` : "";
      const line = prompt(`${name}${f.type === "boolean" ? " (y/n)" : ""}${dflt}:`);
      if (line === null) return "decline";
      if (line !== "") given[name] = f.type === "boolean" ? /^y|^true/i.test(line) : line;
    }
    try {
      return checkAnswer(schema, given);
    } catch (error) {
      ctx.io.err(`${(error as Error).message}; try again (end of input declines)\n`);
    }
  }
}

/**
 * A server's question during a call (decision 0040), as `mcpx call` and
 * `mcpx elicit answer --wait` meet it: recognised in the daemon's answer,
 * written as text with its schema in short form and the exact command that
 * answers it (cli/outcome_render.ts prints that, or the `{ question }`
 * document, and exits 75: EX_TEMPFAIL, core/errors.ts `EXIT.tempfail`); or,
 * for a question routed to a person when stdin and stderr are a terminal and
 * `MCPX_INPUT` is not `report` (spec 004), asked inline so the call goes on.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { QuestionView } from "../../engine/question_view.ts";
import { requestDaemon } from "../../wire/daemon_request.ts";
import { VERSION } from "../../core/version.ts";
import { checkAnswer, fieldsOf } from "../../engine/question_form.ts";

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
 * Asks `q` at this terminal when a person there can answer it (a question
 * routed to a person, stdin and stderr a terminal, `MCPX_INPUT` not
 * `report`; spec 004) and sends the answer to the daemon holding the call.
 * Prints nothing else: a question nobody here can answer is the caller's to
 * render (cli/outcome_render.ts prints it and exits 75).
 *
 * @param socket The daemon that holds the call; default: the configuration's.
 * @returns The call's next answer (its result, or another question), or
 *   undefined when the question cannot be asked here.
 */
export async function askAtTerminal(
  ctx: CliContext,
  q: QuestionView,
  socket?: string,
): Promise<unknown | undefined> {
  const inline = q.route === "person" && ctx.env.MCPX_INPUT !== "report" &&
    Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  if (!inline) return undefined;
  const send = (body: Record<string, unknown>) =>
    socket
      ? requestDaemon(socket, "questionAnswer", body, { version: VERSION })
      : ctx.request("questionAnswer", body);
  ctx.io.err(questionText({ ...q, route: "agent" }).split("\n  answer:")[0] + "\n");
  const answer = askInline(ctx, q);
  if (answer === "decline") {
    return await send({ id: q.id, decline: true, wait: true });
  }
  return await send({ id: q.id, answer, tty: true, wait: true });
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

/**
 * What `mcpx log sql` prints, held to `log.sqlMaxBytes` (issue 24, "`log sql`
 * output"; decision 0063). The child that runs the statement
 * (logs/sql_query.ts) stops before the rows' compact JSON passes the bound,
 * which keeps its memory bounded; what is printed is larger: the indented
 * `--json` document (measured 13.5 MB for an 8 MiB answer) and the table,
 * whose columns are padded to their widest cell (18.1 MB). So the rendering
 * itself is measured, and rows are left off the end until it fits, with
 * `stopped` saying so as for any other bound.
 *
 * @module
 */

import { renderTable, truncate } from "../table.ts";
import type { SqlAnswer, SqlStop } from "../../logs/sql_query.ts";

/** The widest a table cell is printed, in characters. */
export const SQL_CELL_MAX = 100;

const encoder = new TextEncoder();

/**
 * The text `mcpx log sql` prints on stdout for `answer`: its `--json`
 * document (indented two spaces) or its table, with as many of its rows as
 * fit in `maxBytes` bytes of UTF-8.
 *
 * @param answer The statement's answer (it may already carry `stopped`).
 * @param options.json The `--json` document, else the table.
 * @param options.maxBytes The bound on the printed bytes (`log.sqlMaxBytes`).
 * @returns The text, the rows it holds, and the answer's `stopped` (a `printed` stop when
 *   rows were left off here).
 */
export function printedSqlAnswer(
  answer: SqlAnswer,
  options: { json: boolean; maxBytes: number },
): { text: string; rows: unknown[][]; stopped?: SqlStop } {
  const render = (rows: unknown[][], stopped?: SqlStop) =>
    options.json
      ? JSON.stringify(
        { columns: answer.columns, rows, ...(stopped ? { stopped } : {}) },
        null,
        2,
      ) +
        "\n"
      : sqlTable(answer.columns, rows);
  const whole = render(answer.rows, answer.stopped);
  if (encoder.encode(whole).length <= options.maxBytes) {
    return {
      text: whole,
      rows: answer.rows,
      ...(answer.stopped ? { stopped: answer.stopped } : {}),
    };
  }
  const stop = (rows: number): SqlStop => ({
    limit: "printed",
    rows,
    setting: "log.sqlMaxBytes",
    max: options.maxBytes,
  });
  // The printed size only grows with the rows kept: the most that fit, by bisection.
  let fits = 0;
  let over = answer.rows.length;
  while (over - fits > 1) {
    const mid = Math.floor((fits + over) / 2);
    const size = encoder.encode(render(answer.rows.slice(0, mid), stop(mid))).length;
    if (size <= options.maxBytes) fits = mid;
    else over = mid;
  }
  const stopped = stop(fits);
  const rows = answer.rows.slice(0, fits);
  return { text: render(rows, stopped), rows, stopped };
}

/**
 * The table `mcpx log sql` prints: the columns upper-cased, each cell cut to
 * {@link SQL_CELL_MAX} characters, SQL NULL as an empty cell.
 */
export function sqlTable(columns: readonly string[], rows: readonly unknown[][]): string {
  return renderTable(
    columns.map((c) => c.toUpperCase()),
    rows.map((row) => row.map((v) => truncate(v === null ? "" : String(v), SQL_CELL_MAX))),
  );
}

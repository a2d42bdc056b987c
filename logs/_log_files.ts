/**
 * What names a log file (logs/writer.ts) and how log files are ordered, for
 * the writer and the directory's budget (logs/dir_budget.ts) alike.
 *
 * @module
 */

/** The suffix of every log file. */
export const LOG_FILE_SUFFIX = ".jsonl";

/** Orders `<day>_<source>_<n>.jsonl` names by day, writer, then `n` as a number. */
export function byDayWriterSequence(a: string, b: string): number {
  const split = (name: string) => {
    const cut = name.lastIndexOf("_");
    return [name.slice(0, cut), Number.parseInt(name.slice(cut + 1), 10) || 0] as const;
  };
  const [stemA, nA] = split(a);
  const [stemB, nB] = split(b);
  return stemA < stemB ? -1 : stemA > stemB ? 1 : nA - nB;
}

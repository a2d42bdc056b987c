/**
 * A bench's command line (private to bench/): `--help`, integer flags that
 * exit 2 with the usage on a bad value, and progress lines on stderr (stdout
 * holds the report).
 *
 * @module
 */

/** Writes one progress line to stderr. */
export const log = (line: string) => console.error(line);

/** Prints `usage` and exits when `--help` was given. */
export function helpAndExit(help: boolean | undefined, usage: string): void {
  if (!help) return;
  console.log(usage);
  Deno.exit(0);
}

/** A parser for an integer flag that exits 2 with `usage` on a bad value. */
export function counter(
  usage: string,
): (name: string, value: string | undefined, fallback: number, min?: number) => number {
  return (name, value, fallback, min = 1) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      console.error(`error: --${name} wants an integer ≥ ${min}, got "${value}"\n\n${usage}`);
      Deno.exit(2);
    }
    return n;
  };
}

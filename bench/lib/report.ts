/**
 * Figures and verdicts shared by the benches: medians, aligned tables, and the one PASS/FAIL line
 * per target. A missed target fails the process only under BENCH_STRICT=1: timings depend on the
 * machine, so they inform by default and gate only when asked to.
 */

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Right-aligns every column but the first. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [headers, ...rows].map((row) => row.map(String));
  const widths = headers.map((_, col) => Math.max(...cells.map((row) => (row[col] ?? '').length)));
  const line = (row: readonly string[]) =>
    row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join('\n');
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => `${n.toFixed(1)} ms`,
  ratio: (n: number) => `${n.toFixed(2)}×`,
  mb: (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`,
};

export interface Verdict {
  pass: boolean;
  line: string;
}

/** Higher is better: e.g. throughput as a share of the baseline's. */
export function atLeast(name: string, ratio: number, target: number, baseline: string): Verdict {
  const pass = Number.isFinite(ratio) && ratio >= target;
  return { pass, line: `${pass ? 'PASS' : 'FAIL'} ${name}: ${ratio.toFixed(2)}× ${baseline} (target ≥ ${target})` };
}

/** Lower is better: e.g. time as a multiple of the baseline's. */
export function atMost(name: string, ratio: number, target: number, baseline: string): Verdict {
  const pass = Number.isFinite(ratio) && ratio <= target;
  return { pass, line: `${pass ? 'PASS' : 'FAIL'} ${name}: ${ratio.toFixed(2)}× ${baseline} (target ≤ ${target}×)` };
}

/** A figure printed among the verdicts for context, gated by no target. */
export function info(line: string): Verdict {
  return { pass: true, line: `INFO ${line}` };
}

/** A target that could not be measured honestly (errors, wrong answers) is a failure too. */
export function invalid(name: string, reason: string): Verdict {
  return { pass: false, line: `FAIL ${name}: ${reason}` };
}

export function strict(): boolean {
  return process.env.BENCH_STRICT === '1';
}

/** Prints the verdict lines last, and sets a failing exit code only under BENCH_STRICT=1. */
export function finish(verdicts: readonly Verdict[]): void {
  console.log('');
  for (const v of verdicts) console.log(v.line);
  if (strict() && verdicts.some((v) => !v.pass)) process.exitCode = 1;
}

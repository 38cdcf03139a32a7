/**
 * `pnpm --filter @chronicler/bench bench:pace` — pace predictions (docs/decisions/0018-pace-predictions.md):
 * one recalculation of a series' pace table — 50 books with goals over two years of the author's
 * statistics (lib/pace-cases.ts) — in Chromium (the target; a bundled page, as text-merge.ts) and in
 * Node (for comparison). Each book has a goal (target, deadline, five or seven writing days, twelve
 * days off); the words per day are made from the synced rows, then every book is projected
 * (projectPace, the large targets walking years of writing days). Chromium's answers must equal
 * Node's, or the run fails.
 * Target: ≤ 20 ms in Chromium (absolute: the table is redrawn when a row changes, and a frame is 16 ms).
 *
 *   tsx pace.ts [--books 50] [--days 730] [--rounds 21] [--no-browser]
 */
import { parseArgs } from 'node:util';
import { type PaceTiming, runPaceBench } from './lib/pace-cases.ts';
import { type Verdict, finish, fmt, info, invalid, table } from './lib/report.ts';
import { runInBundledPage } from './lib/playwright.ts';
import { benchArgs, describeLoad, describeMachine } from './lib/setting.ts';

const { values: flags } = parseArgs({
  args: benchArgs(),
  options: {
    books: { type: 'string', default: '50' },
    days: { type: 'string', default: '730' },
    rounds: { type: 'string', default: '21' },
    'no-browser': { type: 'boolean', default: false },
  },
});
const input = { rounds: Number(flags.rounds), books: Number(flags.books), days: Number(flags.days) };
const TARGET_MS = 20;

function row(where: string, t: PaceTiming): string[] {
  return [where, fmt.int(t.books), fmt.int(t.days), fmt.ms(t.medianMs), fmt.ms(t.slowestMs)];
}

console.log(`pace: ${describeMachine()}`);
console.log(describeLoad());
const verdicts: Verdict[] = [];
const rows: string[][] = [];
const node = runPaceBench(input);
rows.push(row('Node', node));
verdicts.push(info(`pace projection, Node: median ${fmt.ms(node.medianMs)} for ${input.books} books over ${input.days} days`));
if (!flags['no-browser']) {
  try {
    const { version, result } = await runInBundledPage(
      'browser/pace-entry.ts',
      (arg) => (globalThis as unknown as { __paceBench: typeof runPaceBench }).__paceBench(arg),
      input,
    );
    rows.push(row(`Chromium ${version}`, result));
    if (result.finishes !== node.finishes) verdicts.push(invalid('pace projection, Chromium', 'its answers differ from Node’s'));
    else {
      const pass = result.medianMs <= TARGET_MS;
      verdicts.push({ pass, line: `${pass ? 'PASS' : 'FAIL'} pace projection of ${input.books} books over ${input.days} days, Chromium: median ${fmt.ms(result.medianMs)} (target ≤ ${TARGET_MS} ms)` });
    }
  } catch (error) {
    verdicts.push(invalid('pace projection, Chromium', error instanceof Error ? error.message : String(error)));
  }
}
console.log(`\nmedians of ${input.rounds} rounds\n`);
console.log(table(['where', 'books', 'days', 'median', 'slowest'], rows));
console.log(describeLoad());
finish(verdicts);

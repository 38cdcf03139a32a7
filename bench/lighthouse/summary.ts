/**
 * `npx tsx lighthouse/summary.ts DIR/*.json` — what a saved Lighthouse report (lighthouse.ts --save DIR)
 * says about the first load: the scores, the metrics, the LCP element and its phases, the long tasks
 * (start, duration, the script they are charged to), the scripts' boot-up time, the main thread's
 * work by kind, and when each script arrived.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Audit {
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  details?: { type: string; items?: Record<string, unknown>[] };
}

const ms = (n: unknown) => (typeof n === 'number' ? `${Math.round(n)} ms` : String(n));
const short = (url: unknown) => (typeof url === 'string' ? url.replace(/^https?:\/\/[^/]+/, '') || '/' : String(url));

for (const file of process.argv.slice(2)) {
  const lhr = JSON.parse(fs.readFileSync(file, 'utf8')) as { categories: Record<string, { score: number }>; audits: Record<string, Audit> };
  const a = lhr.audits;
  console.log(`\n=== ${path.basename(file)}: performance ${Math.round(lhr.categories.performance.score * 100)}`);
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'speed-index', 'cumulative-layout-shift', 'interactive']) {
    console.log(`  ${id}: ${a[id]?.displayValue} (score ${a[id]?.score})`);
  }
  const lcpItems = a['largest-contentful-paint-element']?.details?.items ?? [];
  for (const item of lcpItems) {
    const inner = item as { type?: string; items?: Record<string, unknown>[]; headings?: unknown };
    if (inner.type === 'table') {
      for (const row of inner.items ?? []) {
        const node = row.node as { snippet?: string; selector?: string; nodeLabel?: string } | undefined;
        if (node) console.log(`  LCP element: ${node.snippet} (${node.selector}) "${node.nodeLabel}"`);
        else if (row.phase) console.log(`    ${row.phase}: ${ms(row.timing)} (${row.percent})`);
      }
    }
  }
  console.log('  long tasks (start, duration, url):');
  for (const t of a['long-tasks']?.details?.items ?? []) console.log(`    ${ms(t.startTime)} +${ms(t.duration)} ${short(t.url)}`);
  console.log('  boot-up time (total, scripting, parse/compile):');
  for (const t of a['bootup-time']?.details?.items ?? []) console.log(`    ${ms(t.total)} ${ms(t.scripting)} ${ms(t.scriptParseCompile)} ${short(t.url)}`);
  console.log('  main thread:');
  for (const t of a['mainthread-work-breakdown']?.details?.items ?? []) console.log(`    ${ms(t.duration)} ${t.groupLabel}`);
  console.log('  requests (start → end, transfer, url):');
  for (const r of a['network-requests']?.details?.items ?? []) {
    console.log(`    ${ms(r.networkRequestTime)} → ${ms(r.networkEndTime)} ${Math.round(Number(r.transferSize) / 1024)} kB ${r.priority} ${short(r.url)}`);
  }
}

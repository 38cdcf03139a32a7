/**
 * The write floor of postgres.ts: the SQL one `PUT /api/chapters/{id}` runs on PostgreSQL, captured
 * from the real server (lib/save-statements.ts `captureSave`, with the queries the `pg` clients of
 * its pool send recorded), then replayed straight through `pg` with new values and no HTTP, no
 * server code — as many clients at once as the HTTP run has connections, each saving its own
 * chapter, each save its own transaction (as the server commits each write alone on PostgreSQL,
 * sync-server/src/db/README.md). The replay sends each statement as the server's driver does
 * (a parameterised query, unnamed), so the floor differs from the server by HTTP and server code only.
 */
import pg from 'pg';
import { type CapturedSave, type StatementRecorder, type Step, captureSave, saveSwapper } from './save-statements.ts';
import { type BenchDatabase, connectTo, createBenchDatabase } from './postgres.ts';

/** Records every query a `pg` client sends (the server's pool, in this process), with its client. */
const recordPgQueries: StatementRecorder = (recording, steps) => {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const clients = new WeakMap<object, number>();
  let nextClient = 1;
  proto.query = function (this: object, ...args: unknown[]) {
    if (recording() && typeof args[0] === 'string') {
      if (!clients.has(this)) clients.set(this, nextClient++);
      steps.push({ source: args[0], method: 'all', args: Array.isArray(args[1]) ? structuredClone(args[1]) : [], client: clients.get(this)! });
    }
    return original.apply(this, args);
  };
  return { restore: () => void (proto.query = original) };
};

/** A save captured on a database of its own (dropped with `drop`), to copy for each floor. */
export async function capturePostgresSave(content: (n: number) => string, chapters: number): Promise<CapturedSave & { database: BenchDatabase }> {
  const database = await createBenchDatabase('capture');
  try {
    const save = await captureSave('', content, chapters, { databaseUrl: database.url, name: database.name, record: recordPgQueries });
    return { ...save, database };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * Saves per second of the captured statements replayed by `connections` clients at once, each on
 * its own chapter, for `seconds`, on a fresh copy of the captured database (dropped after).
 */
export async function postgresStatementFloor(save: CapturedSave, content: (n: number) => string, seconds: number, connections: number): Promise<number> {
  if (connections > save.chapterIds.length) throw new Error(`${connections} clients need ${connections} chapters; the capture made ${save.chapterIds.length}`);
  const steps = save.steps.filter((s): s is Extract<Step, { source: string }> => 'source' in s);
  const bumpsSeq = steps.map((s) => /sync_state/.test(s.source) && /returning/i.test(s.source));
  if (!/^begin/i.test(steps[0]!.source) || !/^commit/i.test(steps.at(-1)!.source) || !bumpsSeq.includes(true)) {
    throw new Error('the captured save is not one transaction with a seq bump');
  }
  const copy = await createBenchDatabase('floor', save.file);
  const clients: pg.Client[] = [];
  try {
    for (let i = 0; i < connections; i++) clients.push(await connectTo(copy.url));
    const eventsBefore = Number((await clients[0]!.query('select count(*) as n from writing_events')).rows[0].n);
    let n = 0;
    let saves = 0;
    const deadline = performance.now() + seconds * 1000;
    const start = performance.now();
    await Promise.all(
      clients.map(async (client, c) => {
        while (performance.now() < deadline) {
          n += 1;
          const { swap, setRev } = saveSwapper(save.captured, { chapterId: save.chapterIds[c]!, content: content(n), key: `floor-replay-${n}` });
          for (const [i, step] of steps.entries()) {
            const result = await client.query(step.source, swap(step.args) as unknown[]);
            if (bumpsSeq[i]) setRev(Number(Object.values(result.rows[0] as Record<string, unknown>)[0]));
          }
          saves += 1;
        }
      }),
    );
    const rate = saves / ((performance.now() - start) / 1000);
    // Every replayed save must have written what a save writes, or the floor flatters itself.
    const kept = Number((await clients[0]!.query(`select count(*) as n from idempotency_keys where key like 'floor-replay-%'`)).rows[0].n);
    const events = Number((await clients[0]!.query('select count(*) as n from writing_events')).rows[0].n) - eventsBefore;
    if (kept !== saves || events !== saves) throw new Error(`replayed ${saves} saves but found ${kept} idempotency records and ${events} writing events`);
    return rate;
  } finally {
    await Promise.all(clients.map((c) => c.end()));
    await copy.drop();
  }
}

/**
 * The server's own save, as SQL: the statements one `PUT /api/chapters/{id}` runs (captured from the
 * real server on its migrated schema), replayed straight through better-sqlite3 with new values and
 * no server code. It is the write floor that measures what the save's SQL costs on this disk — the
 * indexes, the writing event and day, the idempotency record — which the four-write floor of
 * server-http.ts leaves out.
 *
 * Capture: the real app (buildApp, in this process, on a temp file) registers an author, makes a
 * series with `chapters` chapters, saves one chapter twice to warm it, then saves it a third time
 * while better-sqlite3's Statement methods and `exec` record every statement with its parameters.
 * Replay: a copy of that database file; every recorded statement prepared once; each replayed save
 * runs them in order with the save's own values swapped for new ones (its chapter, text, rev from
 * the seq bump, idempotency key, and any id the save generated).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { newId } from '@chronicler/schema';
import { buildApp } from '@chronicler/sync-server';
import { testConfig } from '@chronicler/sync-server/config';

type Method = 'run' | 'get' | 'all' | 'iterate';
/** `client`: which connection ran it, where there are several (PostgreSQL's pool). */
export type Step = { sql: string } | { source: string; method: Method; args: unknown[]; client?: number };

/** Records what the storage runs while `recording()` says so, into `steps`; `restore` stops it. */
export type StatementRecorder = (recording: () => boolean, steps: Step[]) => { restore(): void };

/** Where a capture runs: the SQLite file in `dir` by default, or a PostgreSQL database with its recorder. */
export interface CaptureStorage {
  databaseUrl: string;
  /** The database's name: CapturedSave.file. */
  name: string;
  record: StatementRecorder;
}

export interface CapturedSave {
  /** The database as the server left it after the capture (checkpointed, closed): a SQLite file, or a PostgreSQL database's name. */
  file: string;
  chapterIds: string[];
  /** The statements of one save, BEGIN to COMMIT. */
  steps: Step[];
  /** The captured save's own values, which a replay replaces. */
  captured: { chapterId: string; content: string; rev: number; key: string; knownIds: Set<string> };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Records what better-sqlite3 runs while `recording()` says so; `restore` puts the methods back. */
const recordStatements: StatementRecorder = (recording, steps) => {
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<Method, (...a: unknown[]) => unknown>;
  probe.close();
  const databaseProto = Database.prototype as unknown as { exec(sql: string): unknown };
  const originals = { exec: databaseProto.exec } as Record<string, (...a: unknown[]) => unknown>;
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = statementProto[method];
    originals[method] = original;
    statementProto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (recording()) steps.push({ source: this.source, method, args: structuredClone(args) });
      return original.apply(this, args);
    };
  }
  databaseProto.exec = function (this: unknown, sql: string) {
    if (recording()) steps.push({ sql });
    return originals.exec!.call(this, sql);
  };
  return {
    restore() {
      for (const method of ['run', 'get', 'all', 'iterate'] as const) statementProto[method] = originals[method]!;
      databaseProto.exec = originals.exec as (sql: string) => unknown;
    },
  };
};

export async function captureSave(dir: string, content: (n: number) => string, chapters: number, storage?: CaptureStorage): Promise<CapturedSave> {
  const file = storage ? storage.name : path.join(dir, 'save-statements.db');
  const app = await buildApp(
    testConfig(storage ? { databaseUrl: storage.databaseUrl, throwawayDatabase: false, logLevel: false } : { databaseFile: file, databaseUrl: null, logLevel: false }),
  );
  const steps: Step[] = [];
  let recording = false;
  const recorder = (storage?.record ?? recordStatements)(() => recording, steps);
  try {
    await app.ready();
    const reg = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: 'floorauthor', password: 'correct horse battery staple', displayName: 'Floor Author' },
    });
    const session = reg.cookies.find((c) => c.name === 'chronicler_session');
    if (reg.statusCode !== 201 || !session) throw new Error(`register answered ${reg.statusCode}: ${reg.body}`);
    const headers = { cookie: `chronicler_session=${session.value}`, 'content-type': 'application/json' };
    const call = async <T>(method: 'POST' | 'PUT', url: string, payload: object, extra: Record<string, string> = {}): Promise<T> => {
      const res = await app.inject({ method, url, payload, headers: { ...headers, ...extra } });
      if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
      return JSON.parse(res.body) as T;
    };
    const user = JSON.parse(reg.body) as { id: string };
    const series = await call<{ id: string }>('POST', '/api/series', { title: 'Floor Saga', totalBooks: 1 });
    const book = await call<{ id: string }>('POST', '/api/books', { seriesId: series.id, title: 'Book One' });
    const chapterIds: string[] = [];
    for (let i = 0; i < chapters; i++) {
      chapterIds.push((await call<{ id: string }>('POST', '/api/chapters', { bookId: book.id, title: `Chapter ${i + 1}`, content: content(i) })).id);
    }
    const chapterId = chapterIds[0]!;
    let rev = 0;
    let key = '';
    for (let save = 1; save <= 3; save++) {
      const current = JSON.parse((await app.inject({ method: 'GET', url: `/api/chapters/${chapterId}`, headers })).body) as { rev: number };
      key = `floor-capture-${save}`;
      recording = save === 3;
      const saved = await call<{ rev: number; mergeStatus: string }>('PUT', `/api/chapters/${chapterId}`, { content: content(100 + save) }, {
        'x-base-rev': String(current.rev),
        'idempotency-key': key,
      });
      recording = false;
      if (saved.mergeStatus !== 'fast-forward') throw new Error(`the captured save was ${saved.mergeStatus}, not a fast-forward`);
      rev = saved.rev;
    }
    const begin = steps.findIndex((s) => 'source' in s && /^begin/i.test(s.source));
    const commit = steps.findLastIndex((s) => 'source' in s && /^commit/i.test(s.source));
    if (begin < 0 || commit < begin) throw new Error('the captured save has no BEGIN … COMMIT');
    return {
      file,
      chapterIds,
      // Only the connection that ran the save (a pool may serve other work meanwhile).
      steps: steps.slice(begin, commit + 1).filter((s) => !('client' in s) || s.client === (steps[begin] as { client?: number }).client),
      captured: { chapterId, content: content(103), rev, key, knownIds: new Set([user.id, series.id, book.id, ...chapterIds]) },
    };
  } finally {
    recorder.restore();
    await app.close();
  }
}

/** JSON's escaping of `text` inside a string literal (how the revision snapshot holds the text). */
const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * A captured statement's values made into another save's: its chapter, text, idempotency key and
 * rev (`setRev` once the replay's seq bump answered), and a new id for every id the save generated.
 */
export function saveSwapper(
  captured: CapturedSave['captured'],
  save: { chapterId: string; content: string; key: string },
): { swap(value: unknown): unknown; setRev(rev: number): void } {
  const capturedText = escaped(captured.content);
  const fresh = new Map<string, string>();
  let rev = captured.rev;
  const swap = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(swap);
    if (typeof value === 'number') return value === captured.rev ? rev : value;
    if (typeof value !== 'string') return value;
    if (value === captured.chapterId) return save.chapterId;
    if (value === captured.content) return save.content;
    if (value === captured.key) return save.key;
    if (UUID.test(value) && !captured.knownIds.has(value)) {
      if (!fresh.has(value)) fresh.set(value, newId());
      return fresh.get(value);
    }
    if (value.length > capturedText.length && value.includes(capturedText)) return value.replace(capturedText, escaped(save.content));
    return value;
  };
  return { swap, setRev: (next) => void (rev = next) };
}

/**
 * Saves per second of the captured statements replayed `group` saves per transaction (one per
 * chapter, as group commit shares a COMMIT among that many writers) for `seconds`, on a fresh copy
 * of the captured database with the production pragmas. No checkpoint runs in the timed window
 * (the server's run on a worker thread, off its event loop).
 */
export function statementFloor(save: CapturedSave, content: (n: number) => string, seconds: number, group: number): number {
  if (group > save.chapterIds.length) throw new Error(`a group of ${group} needs ${group} chapters; the capture made ${save.chapterIds.length}`);
  const file = path.join(path.dirname(save.file), `statement-floor-${group}.db`);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  fs.copyFileSync(save.file, file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('wal_autocheckpoint = 0');
    const { captured } = save;
    const statements = save.steps.map((step) => ('sql' in step ? null : db.prepare(step.source)));
    const bumpsSeq = save.steps.map((step) => 'source' in step && /sync_state/.test(step.source) && /returning/i.test(step.source));
    const transaction = save.steps.filter((s) => 'source' in s && /^(begin|commit)/i.test(s.source)).length;
    if (transaction !== 2 || !bumpsSeq.includes(true)) throw new Error('the captured save is not one transaction with a seq bump');
    const members = save.steps.slice(1, -1);

    let n = 0;
    const replayMember = (chapterId: string) => {
      n++;
      const { swap, setRev } = saveSwapper(captured, { chapterId, content: content(n), key: `floor-${group}-${n}` });
      members.forEach((step, i) => {
        if ('sql' in step) {
          db.exec(step.sql);
          return;
        }
        const result = (statements[i + 1]![step.method] as (...a: unknown[]) => unknown)(...(swap(step.args) as unknown[]));
        if (bumpsSeq[i + 1]) setRev(Number(Object.values((Array.isArray(result) ? result[0] : result) as Record<string, unknown>)[0]));
      });
    };
    const eventsBefore = db.prepare('select count(*) from writing_events').pluck().get() as number;
    const begin = statements[0]!;
    const commit = statements.at(-1)!;
    const start = performance.now();
    let saves = 0;
    while (performance.now() - start < seconds * 1000) {
      begin.run();
      for (let i = 0; i < group; i++) replayMember(save.chapterIds[i]!);
      commit.run();
      saves += group;
    }
    const rate = saves / ((performance.now() - start) / 1000);
    // Every replayed save must have written what a save writes, or the floor flatters itself.
    const kept = db.prepare(`select count(*) from idempotency_keys where key like 'floor-${group}-%'`).pluck().get() as number;
    const events = (db.prepare('select count(*) from writing_events').pluck().get() as number) - eventsBefore;
    if (kept !== saves || events !== saves) throw new Error(`replayed ${saves} saves but found ${kept} idempotency records and ${events} writing events`);
    return rate;
  } finally {
    db.close();
  }
}

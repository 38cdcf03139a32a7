/**
 * Throwaway PostgreSQL databases, the counterpart of SQLite's ':memory:' for tests and benches: each
 * is a copy of a template database migrated once (CREATE DATABASE ... TEMPLATE). Test files running
 * in parallel each get their own, as they each get their own in-memory SQLite
 * (sync-server/test/README.md).
 *
 * Copying and dropping a database costs about a second each on a busy machine (it writes the whole
 * copy to the WAL), and the suite opens hundreds of apps. So a closed one is emptied instead (every
 * row deleted, children before parents, the seq back to 0: tens of milliseconds) and kept for this
 * process's next app; what a process leaves behind is dropped by a later one, which finds its
 * process gone (the pid is in the name).
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { databaseName, withDatabase } from './url.ts';

let counter = 0;
/** Emptied databases kept for reuse, by template. */
const free = new Map<string, string[]>();
/** Free databases kept per process at most (more are dropped). */
const MAX_FREE = 4;
let swept = false;
/** Databases asked for by name (a test's "file"): every open with the name gets the same one, kept while this process runs. */
const named = new Map<string, Promise<string>>();

/** Deletes every row (children before parents, by the foreign keys) and sets the seq back to 0. */
async function empty(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>("select tablename as name from pg_tables where schemaname = current_schema() and tablename not like 'kysely_%'")).rows.map((r) => r.name);
    const edges = (
      await client.query<{ child: string; parent: string }>(
        "select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent from pg_constraint c where c.contype = 'f' and c.conrelid <> c.confrelid",
      )
    ).rows;
    const order: string[] = [];
    const left = new Set(tables);
    while (left.size > 0) {
      // A table whose children are all emptied already goes next.
      const next = [...left].filter((t) => !edges.some((e) => e.parent === t && left.has(e.child)));
      const batch = next.length > 0 ? next : [...left];
      for (const t of batch) {
        order.push(t);
        left.delete(t);
      }
    }
    await client.query('begin');
    for (const table of order) await client.query(`delete from ${ident(table)}`);
    await client.query("insert into sync_state (name, value) values ('seq', 0)");
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/** Drops the throwaway databases of processes that are gone (a crashed or finished test worker). */
async function sweep(admin: pg.Client): Promise<void> {
  if (swept) return;
  swept = true;
  const names = (await admin.query<{ datname: string }>("select datname from pg_database where datname like 'chronicler_t\\_%'")).rows.map((r) => r.datname);
  for (const name of names) {
    const pid = Number(/_(\d+)_\d+_[0-9a-f]+$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await admin.query(`drop database if exists ${ident(name)} with (force)`).catch(() => undefined);
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A fresh database on the server of `location`, copied from the template `migrate` builds (once per
 * set of migrations: its name carries their hash). Answers its URL and how to drop it.
 */
export async function createThrowawayDatabase(
  location: string,
  migrationNames: readonly string[],
  migrate: (url: string) => Promise<void>,
  name?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (name !== undefined) {
    // A test that restarts its app "on the same file" gets the same database back; a later process drops it.
    let url = named.get(name);
    if (!url) {
      url = createThrowawayDatabase(location, migrationNames, migrate).then((made) => made.url);
      named.set(name, url);
    }
    return { url: await url, drop: async () => undefined };
  }
  // The role is part of the name: a role may copy only a database it owns (or a superuser's marked
  // template), so a template another role left on the server (a developer's, an earlier CI role's) is never taken.
  const role = decodeURIComponent(new URL(location).username);
  const hash = crypto.createHash('sha256').update(`${role}\n${migrationNames.join('\n')}`).digest('hex').slice(0, 12);
  const template = `chronicler_template_${hash}`;
  const release = (url: string) => async () => {
    const kept = free.get(template) ?? [];
    if (kept.length < MAX_FREE) {
      try {
        await empty(url);
        free.set(template, [...kept, url]);
        return;
      } catch {
        // could not empty it: drop it below
      }
    }
    await dropDatabase(location, databaseName(url));
  };
  const reused = free.get(template)?.pop();
  if (reused) return { url: reused, drop: release(reused) };
  const admin = new pg.Client({ connectionString: location });
  await admin.connect();
  try {
    await sweep(admin);
    // One builder at a time across every test process; the others wait and find it built.
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (found.rowCount === 0) {
        const building = `${template}_building_${process.pid}`;
        await admin.query(`drop database if exists ${ident(building)}`);
        // C collation: text sorts by code point, as SQLite's binary collation does (the same answers on both storages).
        await admin.query(`create database ${ident(building)} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
        await migrate(withDatabase(location, building));
        await admin.query(`alter database ${ident(building)} rename to ${ident(template)}`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [template]);
    }
    counter += 1;
    const name = `chronicler_t_${databaseName(location).slice(0, 12)}_${process.pid}_${counter}_${crypto.randomBytes(3).toString('hex')}`;
    await admin.query(`create database ${ident(name)} template ${ident(template)}`);
    const url = withDatabase(location, name);
    return { url, drop: release(url) };
  } finally {
    await admin.end();
  }
}

async function dropDatabase(location: string, name: string): Promise<void> {
  const dropper = new pg.Client({ connectionString: location });
  await dropper.connect();
  try {
    await dropper.query(`drop database if exists ${ident(name)} with (force)`);
  } finally {
    await dropper.end();
  }
}

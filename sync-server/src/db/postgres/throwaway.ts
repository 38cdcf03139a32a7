/**
 * Throwaway PostgreSQL databases, the counterpart of SQLite's ':memory:' for tests and benches: each
 * is a copy of a template database migrated once (CREATE DATABASE ... TEMPLATE: tens of
 * milliseconds), dropped when its storage closes. Test files running in parallel each get their
 * own, as they each get their own in-memory SQLite (sync-server/test/README.md).
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { databaseName, withDatabase } from './url.ts';

let counter = 0;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A fresh database on the server of `location`, copied from the template `migrate` builds (once per
 * set of migrations: its name carries their hash). Answers its URL and how to drop it.
 */
export async function createThrowawayDatabase(
  location: string,
  migrationNames: readonly string[],
  migrate: (url: string) => Promise<void>,
): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: location });
  await admin.connect();
  try {
    const hash = crypto.createHash('sha256').update(migrationNames.join('\n')).digest('hex').slice(0, 12);
    const template = `chronicler_template_${hash}`;
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
    return {
      url: withDatabase(location, name),
      async drop() {
        const dropper = new pg.Client({ connectionString: location });
        await dropper.connect();
        try {
          await dropper.query(`drop database if exists ${ident(name)} with (force)`);
        } finally {
          await dropper.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}

/**
 * The PostgreSQL benches' own databases (postgres.ts, soak.ts): each run creates fresh ones on the
 * server `BENCH_DATABASE_URL` names and drops them after, as the server's tests do with theirs
 * (sync-server/src/db/postgres/throwaway.ts; C collation, so text sorts as on SQLite). The server
 * migrates a new database itself when it starts (several instances at once migrate once).
 */
import crypto from 'node:crypto';
import pg from 'pg';

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://chronicler:chronicler@127.0.0.1:5432/chronicler_test';

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `base` with its database name replaced. */
export function withDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

export interface BenchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let swept = false;

/** Drops what benches that crashed left behind (their pid is in the name, and gone). */
async function sweep(client: pg.Client): Promise<void> {
  if (swept) return;
  swept = true;
  const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'chronicler\\_bench\\_%'");
  for (const { datname } of rows) {
    const pid = Number(/_(\d+)_[0-9a-f]+$/.exec(datname)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      await client.query(`drop database if exists ${ident(datname)} with (force)`).catch(() => undefined);
    }
  }
}

/** A new empty database (or a copy of `template`, which must have no open connection). */
export async function createBenchDatabase(label: string, template?: string): Promise<BenchDatabase> {
  const name = `chronicler_bench_${label}_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  await admin(async (client) => {
    await sweep(client);
    await client.query(
      template
        ? `create database ${ident(name)} template ${ident(template)}`
        : `create database ${ident(name)} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`,
    );
  });
  let dropped = false;
  return {
    url: withDatabase(BENCH_DATABASE_URL, name),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin((client) => client.query(`drop database if exists ${ident(name)} with (force)`));
    },
  };
}

/** Connections to `database` that PostgreSQL counts, by application name (the instances' pools: `chronicler`; their listeners: `chronicler-listener`). */
export async function connectionsTo(database: string): Promise<Map<string, number>> {
  return admin(async (client) => {
    const { rows } = await client.query<{ app: string; n: number }>(
      'select application_name as app, count(*)::int as n from pg_stat_activity where datname = $1 group by application_name',
      [database],
    );
    return new Map(rows.map((r) => [r.app || '(pool)', r.n]));
  });
}

/** A pg client on `url`, connected; the caller ends it. */
export async function connectTo(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

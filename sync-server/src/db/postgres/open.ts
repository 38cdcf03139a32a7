/**
 * The PostgreSQL storage's connections: one `pg` pool per instance (docs/server.md#postgresql),
 * checked at start with a message that names what is wrong and never the password.
 */
import pg from 'pg';
import { postgresUrlProblem, redactedUrl } from './url.ts';

/** Connections each instance keeps at most (DATABASE_POOL_SIZE). Writes take one at a time (write-transactions.ts). */
export const DEFAULT_POOL_SIZE = 10;

/**
 * bigint (count(*), sync_state.value, the throttle's millisecond stamps) and numeric (sum of bigint)
 * arrive as JS numbers, as better-sqlite3 gives them: seqs and stamps stay far below 2^53.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PoolOptions {
  max?: number;
  /** The pool's name in the server's log ('the database'), for messages. */
  applicationName?: string;
}

export function createPool(location: string, options: PoolOptions = {}): pg.Pool {
  const problem = postgresUrlProblem(location);
  if (problem) throw new StorageStartError(problem);
  const pool = new pg.Pool({
    connectionString: location,
    max: options.max ?? DEFAULT_POOL_SIZE,
    types,
    application_name: options.applicationName ?? 'chronicler',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection dropped by the server (a restart) must not crash the process: the pool
  // replaces it on the next request (docs/server.md#postgresql, "PostgreSQL unavailable").
  pool.on('error', () => undefined);
  // Likewise a connection lost while checked out (between a transaction's statements): pg emits
  // 'error' on the client, which with no listener would end the process. The statement in flight
  // fails (503), and the pool discards the broken client when it comes back.
  pool.on('connect', (client) => void client.on('error', () => undefined));
  return pool;
}

/** The storage could not start: the message is for the operator and never holds the password. */
export class StorageStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageStartError';
  }
}

/** One round trip, so a wrong URL stops the server at start with a message naming what is wrong. */
export async function checkReachable(pool: pg.Pool, location: string): Promise<void> {
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    throw new StorageStartError(`Cannot connect to PostgreSQL at ${redactedUrl(location)}: ${describeConnectError(error)}`);
  }
}

/** A connection failure in words, from its code; never PostgreSQL's text verbatim when it could hold a secret. */
export function describeConnectError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is PostgreSQL running, and on this host and port?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case '28P01':
    case '28000':
      return 'the user name or password was refused';
    case '3D000':
      return 'the database does not exist (create it first: createdb)';
    case '42501':
      return 'the user may not connect to that database';
    case '53300':
      return 'PostgreSQL has no connection slot free';
    default:
      return /timeout/i.test(e.message ?? '') ? 'the connection timed out' : `the connection failed (${e.code ?? 'no code'})`;
  }
}

/**
 * Whether `error` means PostgreSQL could not be reached or went away (refused, reset, shutting down,
 * too many connections, the pool's wait ran out): the request answers 503 and the client retries
 * (http/errors.ts). Classified by code only: PostgreSQL's text never reaches an answer.
 */
export function isStorageUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: string; message?: string };
    if (typeof code === 'string') {
      if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
      // Class 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now; 53300: too many connections.
      if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    }
    if (typeof message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(message)) return true;
  }
  return false;
}

/**
 * Whether `error` is PostgreSQL refusing a character its text cannot hold (U+0000: 22021,
 * 22P05): the request's data, answered 400 with no PostgreSQL text (http/errors.ts). Code only.
 */
export function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}

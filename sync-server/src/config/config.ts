/**
 * Configuration from environment variables with safe defaults (documented in the README).
 * A session secret is generated and kept in DATA_DIR on first start when none is given.
 *
 * config/ is the bottom of the server beside db/: every layer may read the settings, and they
 * import nothing of the server but the parsers beside them (price-config.ts: STRIPE_PRICE_IDS).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type ConfiguredPriceIds, parsePriceIds } from './price-config.ts';

export interface ScryptCost {
  /** CPU/memory cost (power of two). OWASP: 2^17 with r=8, p=1. */
  N: number;
  r: number;
  p: number;
}

export interface AppConfig {
  dataDir: string;
  /** SQLite file; ':memory:' for throwaway test apps. Unused when databaseUrl is set. */
  databaseFile: string;
  /**
   * DATABASE_URL: a postgres:// or postgresql:// URL selects the PostgreSQL storage (several
   * instances on one database, docs/server.md#postgresql); null keeps the SQLite file.
   */
  databaseUrl: string | null;
  /** PostgreSQL in tests: each app gets a fresh database copied from a migrated template, dropped at close. */
  throwawayDatabase?: boolean;
  /** DATABASE_POOL_SIZE: connections each instance keeps to PostgreSQL. */
  databasePoolSize?: number;
  /**
   * More than one server process uses the database file (DB_SHARED_PROCESSES=true): the storage's
   * single-process speed-ups are off (db/database.ts exclusiveProcess).
   */
  sharedProcesses: boolean;
  sessionSecret: string;
  sessionTtlDays: number;
  /** Absolute session lifetime: a session ends this many days after sign-in, however often used. */
  sessionMaxAgeDays: number;
  /** 'auto': Secure cookies when the request came over TLS (directly or via a trusted proxy). */
  cookieSecure: 'auto' | boolean;
  /**
   * The reverse proxies whose `X-Forwarded-*` headers are believed (addresses, CIDRs or proxy-addr's
   * names `loopback`, `linklocal`, `uniquelocal`); false for none. Never "every hop": a client
   * could then pick its own address and dodge the per-address limits.
   */
  trustProxy: false | string[];
  scrypt: ScryptCost;
  /** Login/register attempts per IP per minute; failed logins per account per 15 minutes. */
  rateLimit: { perIpPerMinute: number; failuresPerAccount: number };
  /** Folder of the built web app to serve, or null for API only. */
  webDist: string | null;
  /** SOURCE_MAPS=true: the built app's `*.map` files are served (otherwise they answer 404). */
  serveSourceMaps: boolean;
  /** Largest request body, except the batch route's (a 200,000-word chapter save is ~1.2 MB of JSON). */
  bodyLimitBytes: number;
  /** Largest POST /api/sync/batch body (up to 500 outbox entries). */
  batchBodyLimitBytes: number;
  /** A request (headers and body) must arrive within this long, or the connection is closed (408). */
  requestTimeoutMs: number;
  /** WORKER_MEMORY_MB: each heavy-work thread's heap (workers/pool.ts); null for Node's default. A task past it fails alone. */
  workerMemoryMb?: number | null;
  /**
   * Use the process's heavy-work threads instead of a pool of the app's own (kept when the app
   * closes). Tests set it: they build hundreds of apps in one process. A server has one app.
   */
  shareProcessWorkers?: boolean;
  stripe: {
    secretKey: string;
    webhookSecret: string | null;
    /** STRIPE_PUBLISHABLE_KEY: what the checkout page gives Stripe.js (null: the page cannot take cards). */
    publishableKey?: string | null;
    apiHost: string | null;
    apiPort: number | null;
    apiProtocol: 'http' | 'https';
    /** STRIPE_PRICE_IDS: prices chosen over the lookup keys, per plan and interval (price-config.ts). */
    priceIds?: ConfiguredPriceIds;
    /** STRIPE_INLINE_PRICES (default true): a plan with no Stripe price is sold at the plan table's price, inline. */
    inlinePrices?: boolean;
  } | null;
  ai: { baseUrl: string; apiKey: string | null; model: string } | null;
  logLevel: string | false;
}

export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

function intFrom(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isEveryAddress(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  return rest.length === 0 && net.isIP(address ?? '') !== 0 && (prefix !== undefined && (/^0+$/.test(prefix) || prefix === '0.0.0.0'));
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (net.isIP(prefix) === family) return true; // a netmask, e.g. 10.0.0.0/255.0.0.0
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: unset/empty/false for none; else a comma-separated list of proxy addresses or CIDRs. */
export function trustProxyFrom(value: string | undefined): false | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  // A hop count, or a network of every address (0.0.0.0/0, ::/0, a 0.0.0.0 netmask), trusts any peer.
  if (text === 'true' || /^\d+$/.test(text) || entries.some(isEveryAddress)) {
    throw new Error(
      `TRUST_PROXY=${text} would believe X-Forwarded-For from anyone: give your proxy's address or network instead, e.g. TRUST_PROXY=127.0.0.1 or TRUST_PROXY=loopback,10.0.0.0/8`,
    );
  }
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (bad.length > 0) throw new Error(`TRUST_PROXY: not an address or CIDR: ${bad.join(', ')}`);
  return entries;
}

/** The secret from SESSION_SECRET, else from DATA_DIR/session-secret, made on first start. */
export function loadOrCreateSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv && fromEnv.length >= 32) return fromEnv;
  if (fromEnv) throw new Error('SESSION_SECRET must be at least 32 characters');
  const file = path.join(dataDir, 'session-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: fall through and create it
  }
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig & { port: number; host: string } {
  // Relative paths are taken from where the author ran the command (pnpm runs package scripts
  // inside the package folder, and sets INIT_CWD to the folder the command was typed in).
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(base, env.DATA_DIR ?? './data');
  const stripeKey = env.STRIPE_SECRET_KEY;
  let stripe: AppConfig['stripe'] = null;
  if (stripeKey) {
    const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null;
    stripe = {
      secretKey: stripeKey,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null,
      apiHost: api?.hostname ?? null,
      apiPort: api ? Number(api.port || (api.protocol === 'http:' ? 80 : 443)) : null,
      apiProtocol: api?.protocol === 'http:' ? 'http' : 'https',
      priceIds: parsePriceIds(env.STRIPE_PRICE_IDS),
      inlinePrices: env.STRIPE_INLINE_PRICES !== 'false',
    };
  }
  return {
    port: intFrom(env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseFile: env.DATABASE_FILE ? path.resolve(base, env.DATABASE_FILE) : path.join(dataDir, 'chronicler.db'),
    databaseUrl: env.DATABASE_URL ? env.DATABASE_URL : null,
    databasePoolSize: intFrom(env.DATABASE_POOL_SIZE, 10),
    sharedProcesses: env.DB_SHARED_PROCESSES === 'true',
    sessionSecret: loadOrCreateSecret(dataDir, env.SESSION_SECRET),
    sessionTtlDays: intFrom(env.SESSION_TTL_DAYS, 30),
    sessionMaxAgeDays: intFrom(env.SESSION_MAX_AGE_DAYS, 90),
    cookieSecure: env.COOKIE_SECURE === 'true' ? true : env.COOKIE_SECURE === 'false' ? false : 'auto',
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    scrypt: OWASP_SCRYPT,
    rateLimit: {
      perIpPerMinute: intFrom(env.RATE_LIMIT_PER_MINUTE, 20),
      failuresPerAccount: intFrom(env.RATE_LIMIT_ACCOUNT_FAILURES, 10),
    },
    webDist: env.WEB_DIST === '' ? null : path.resolve(base, env.WEB_DIST ?? path.join(import.meta.dirname, '../../../web/dist')),
    serveSourceMaps: env.SOURCE_MAPS === 'true',
    bodyLimitBytes: intFrom(env.BODY_LIMIT_BYTES, 4 * 1024 * 1024),
    batchBodyLimitBytes: intFrom(env.BATCH_BODY_LIMIT_BYTES, 16 * 1024 * 1024),
    requestTimeoutMs: intFrom(env.REQUEST_TIMEOUT_MS, 60_000),
    workerMemoryMb: env.WORKER_MEMORY_MB ? intFrom(env.WORKER_MEMORY_MB, 0) || null : null,
    stripe,
    ai: env.AI_BASE_URL ? { baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY ?? null, model: env.AI_MODEL ?? 'gpt-4o-mini' } : null,
    logLevel: env.LOG_LEVEL === 'silent' ? false : (env.LOG_LEVEL ?? 'info'),
  };
}

/**
 * The storage the server's tests run on: SQLite unless the test run was started with
 * TEST_STORAGE=postgres and TEST_DATABASE_URL (sync-server/vitest.config.ts runs the suite on both).
 */
export function testDatabaseUrl(): string | null {
  return process.env.TEST_STORAGE === 'postgres' ? (process.env.TEST_DATABASE_URL ?? null) : null;
}

/** Defaults for test apps: in-memory database, fast (but still scrypt) hashing, generous limits. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    dataDir: '/nonexistent',
    databaseFile: ':memory:',
    databaseUrl: testDatabaseUrl(),
    throwawayDatabase: true,
    sharedProcesses: false,
    sessionSecret: 'test-secret-test-secret-test-secret-0123456789',
    sessionTtlDays: 30,
    sessionMaxAgeDays: 90,
    cookieSecure: 'auto',
    trustProxy: false,
    scrypt: { N: 2 ** 10, r: 8, p: 1 },
    rateLimit: { perIpPerMinute: 1_000_000, failuresPerAccount: 1_000_000 },
    webDist: null,
    serveSourceMaps: false,
    bodyLimitBytes: 4 * 1024 * 1024,
    batchBodyLimitBytes: 16 * 1024 * 1024,
    requestTimeoutMs: 60_000,
    stripe: null,
    ai: null,
    logLevel: false,
    shareProcessWorkers: true,
    ...overrides,
  };
}

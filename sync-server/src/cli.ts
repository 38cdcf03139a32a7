/**
 * Operator command: `pnpm cli <command>` (or `pnpm --filter @chronicler/sync-server cli <command>`).
 * Uses the server's own configuration (DATA_DIR / DATABASE_FILE) and is safe to run while the
 * server is up: SQLite in WAL mode lets it read and write beside the running server, and it opens
 * the storage without the single-process speed-ups (db/database.ts exclusiveProcess), as the
 * second process it is. It writes only users and sessions. A plan it sets is a synced write of the
 * author's record (a new seq); the running server notices the foreign commit within
 * FOREIGN_COMMIT_POLL_MS and pokes the author's open apps (sync/foreign-commits.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PLAN_NAMES, type PlanName, planNameSchema, registerBodySchema } from '@chronicler/schema';
import { createUser, listUsers, setUserPlan } from './auth/users.ts';
import { configFromEnv } from './config/config.ts';
import { NewerDatabaseError, type OpenedDatabase, StorageStartError, openDatabase, storageLocation } from './db/database.ts';
import { HttpError } from './http/errors.ts';
import { listSupportRequests } from './billing/store.ts';
import { setUpStripePrices } from './billing/price-setup.ts';
import { createStripeClient } from './billing/stripe.ts';

const USAGE = `Usage: pnpm cli <command> [options]

Commands:
  user:create --username U --password P --display-name D [--email E] [--plan PLAN]
  user:plan   --username U --plan PLAN
  user:list
  backup      --out FILE
  support:list [--limit N]   premium support requests, newest first
  stripe:prices [--dry-run]  create/update the Stripe products and prices of the plan table
                             (lookup keys chronicler_<plan>_<monthly|yearly>); safe to run again

Plans: ${PLAN_NAMES.join(', ')}
The database is DATABASE_FILE, else DATA_DIR/chronicler.db (DATA_DIR defaults to ./data).`;

/** A mistake of the operator: shown as one line, never with a stack. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
}

const defaultIo: CliIo = {
  env: process.env,
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};

type Options = Record<string, string | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (value === undefined || value === '') throw new CliError(`Missing --${name}\n\n${USAGE}`, 2);
  return value;
}

function planFrom(value: string): PlanName {
  const parsed = planNameSchema.safeParse(value.trim().toLowerCase());
  if (!parsed.success) throw new CliError(`Unknown plan "${value}". Plans: ${PLAN_NAMES.join(', ')}`);
  return parsed.data;
}

async function withDatabase<T>(io: CliIo, use: (database: OpenedDatabase, scrypt: ReturnType<typeof configFromEnv>['scrypt']) => Promise<T>): Promise<T> {
  let config: ReturnType<typeof configFromEnv>;
  try {
    config = configFromEnv(io.env);
  } catch (error) {
    throw new CliError(`Configuration error: ${(error as Error).message}`);
  }
  let database: OpenedDatabase;
  try {
    database = await openDatabase(storageLocation(config), { exclusiveProcess: false, backgroundCheckpoints: false, poolSize: 2 });
  } catch (error) {
    if (error instanceof StorageStartError || error instanceof NewerDatabaseError) throw new CliError(error.message);
    throw error;
  }
  try {
    return await use(database, config.scrypt);
  } finally {
    await database.close();
  }
}

async function userCreate(options: Options, io: CliIo): Promise<void> {
  const parsed = registerBodySchema.safeParse({
    username: required(options, 'username'),
    password: required(options, 'password'),
    displayName: required(options, 'display-name'),
    email: options.email ?? null,
  });
  if (!parsed.success) throw new CliError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  const plan = options.plan === undefined ? undefined : planFrom(options.plan);
  const user = await withDatabase(io, (database, scrypt) => createUser({ database, hub: null }, { ...parsed.data, plan }, scrypt));
  io.out(`Created user ${user.username} (${user.plan}), id ${user.id}`);
}

async function userPlan(options: Options, io: CliIo): Promise<void> {
  const username = required(options, 'username');
  const plan = planFrom(required(options, 'plan'));
  const user = await withDatabase(io, (database) => setUserPlan({ database, hub: null }, username, plan));
  if (!user) throw new CliError(`No user named "${username}"`);
  io.out(`${user.username} is now on the ${user.plan} plan`);
}

async function userList(io: CliIo): Promise<void> {
  const users = await withDatabase(io, (database) => listUsers(database.db));
  if (users.length === 0) {
    io.out('No users yet.');
    return;
  }
  const rows = [['USERNAME', 'DISPLAY NAME', 'PLAN', 'EMAIL', 'CREATED'], ...users.map((u) => [u.username, u.displayName, u.plan, u.email ?? '', u.createdAt])];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  for (const row of rows) io.out(row.map((cell, col) => cell.padEnd(widths[col]!)).join('  ').trimEnd());
}

async function backup(options: Options, io: CliIo): Promise<void> {
  const out = path.resolve(required(options, 'out'));
  if (fs.existsSync(out)) throw new CliError(`${out} already exists; choose a new file name`);
  if (!fs.existsSync(path.dirname(out))) throw new CliError(`Folder ${path.dirname(out)} does not exist`);
  // SQLite's online backup: a consistent snapshot even while the server keeps writing.
  const result = await withDatabase(io, (database) => {
    if (database.dialect === 'postgres') throw new CliError('On PostgreSQL, back up with pg_dump (README, "Running on PostgreSQL"); this command copies the SQLite file');
    return database.backup(out);
  });
  if (result !== 'ok') throw new CliError(`Backup written to ${out} but failed its integrity check: ${result}`);
  io.out(`Backup written to ${out} (${fs.statSync(out).size} bytes, integrity ok)`);
}

async function supportList(options: Options, io: CliIo): Promise<void> {
  const limit = options.limit === undefined ? 100 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliError('--limit must be a whole number from 1 to 10000');
  const requests = await withDatabase(io, (database) => listSupportRequests(database.db, limit));
  if (requests.length === 0) {
    io.out('No support requests.');
    return;
  }
  for (const r of requests) {
    io.out(`${r.createdAt}  ${r.username}${r.email ? ` <${r.email}>` : ''}  ${r.id}`);
    io.out(`  Subject: ${r.subject}`);
    for (const line of r.message.split('\n')) io.out(`  ${line}`);
    io.out('');
  }
}

async function stripePrices(dryRun: boolean, io: CliIo): Promise<void> {
  let config: ReturnType<typeof configFromEnv>;
  try {
    config = configFromEnv(io.env);
  } catch (error) {
    throw new CliError(`Configuration error: ${(error as Error).message}`);
  }
  if (!config.stripe) throw new CliError('STRIPE_SECRET_KEY is not set: there is no Stripe account to set up');
  const report = await setUpStripePrices(createStripeClient(config.stripe), config.stripe.priceIds ?? {}, { dryRun });
  for (const line of report.lines) io.out(line);
  io.out(report.changes === 0 ? 'Stripe already sells the plan table: nothing to change.' : `${report.changes} change(s)${dryRun ? ' to make (dry run: nothing was changed)' : ' made'}.`);
  if (report.problems > 0) throw new CliError(`${report.problems} configured price(s) in STRIPE_PRICE_IDS disagree with the plan table (see above)`);
}

/** Runs one command; returns the process exit code. */
export async function runCli(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    }
    let options: Options;
    const dryRun = rest.includes('--dry-run');
    try {
      ({ values: options } = parseArgs({
        // The one flag without a value (parseArgs types every option here as a string).
        args: rest.filter((arg) => arg !== '--dry-run'),
        options: {
          username: { type: 'string' },
          password: { type: 'string' },
          'display-name': { type: 'string' },
          email: { type: 'string' },
          plan: { type: 'string' },
          out: { type: 'string' },
          limit: { type: 'string' },
        },
        strict: true,
        allowPositionals: false,
      }) as { values: Options });
    } catch (error) {
      throw new CliError(`${(error as Error).message}\n\n${USAGE}`, 2);
    }
    switch (command) {
      case 'user:create':
        await userCreate(options, io);
        break;
      case 'user:plan':
        await userPlan(options, io);
        break;
      case 'user:list':
        await userList(io);
        break;
      case 'backup':
        await backup(options, io);
        break;
      case 'support:list':
        await supportList(options, io);
        break;
      case 'stripe:prices':
        await stripePrices(dryRun, io);
        break;
      default:
        throw new CliError(`Unknown command "${command}"\n\n${USAGE}`, 2);
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`Error: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof HttpError) {
      io.err(`Error: ${error.message}`);
      return 1;
    }
    io.err(`Error: ${(error as Error)?.message ?? String(error)}`);
    if (io.env.DEBUG) io.err(String((error as Error)?.stack));
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await runCli(process.argv.slice(2));
}

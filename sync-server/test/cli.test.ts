/** The operator command (src/cli.ts), against a real database file, beside a running app. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type CliIo, runCli } from '../src/cli.ts';
import { testConfig } from '../src/config/config.ts';
import { onPostgres } from './support/helpers.ts';

let dataDir: string;
let databaseFile: string;
/** The PostgreSQL database of the test app, when the suite runs there: the command is given it as DATABASE_URL. */
let databaseUrl: string | null = null;

/** The app the command runs beside, on the suite's storage (a SQLite file, or a throwaway PostgreSQL database). */
async function serverApp() {
  const app = await buildApp(testConfig({ databaseFile }));
  databaseUrl = app.deps.database.url;
  return app;
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-cli-'));
  databaseFile = path.join(dataDir, 'chronicler.db');
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  databaseUrl = null;
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await runCli(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cli', () => {
  it('creates a user the running server can sign in, changes the plan, lists users', async () => {
    const app = await serverApp();
    try {
      await app.ready();
      const created = await cli('user:create', '--username', 'Editor', '--password', 'long-secret', '--display-name', 'The Editor', '--email', 'ed@example.org', '--plan', 'wordsmith');
      expect(created).toMatchObject({ code: 0, err: '' });
      expect(created.out).toContain('Created user Editor (wordsmith)');

      const row = await app.deps.database.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
      // the command uses the production cost, whatever the test app's setting
      expect(row.passwordHash.startsWith('scrypt$131072$8$1$')).toBe(true);
      expect(row).toMatchObject({ username: 'Editor', usernameKey: 'editor', email: 'ed@example.org', emailKey: 'ed@example.org', plan: 'wordsmith' });

      const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'editor', password: 'long-secret' } });
      expect(login.statusCode).toBe(200);

      expect(await cli('user:plan', '--username', 'EDITOR', '--plan', 'Legendary')).toMatchObject({ code: 0, out: 'Editor is now on the legendary plan' });
      const cookie = `chronicler_session=${login.cookies.find((c) => c.name === 'chronicler_session')!.value}`;
      const me = await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
      expect(me.json().plan).toBe('legendary');

      const listed = await cli('user:list');
      expect(listed.code).toBe(0);
      expect(listed.out.split('\n')[0]).toMatch(/^USERNAME\s+DISPLAY NAME\s+PLAN\s+EMAIL\s+CREATED$/);
      expect(listed.out).toMatch(/Editor\s+The Editor\s+legendary\s+ed@example\.org/);
    } finally {
      await app.close();
    }
  });

  it('refuses duplicate usernames, invalid input and unknown plans with clear messages', async () => {
    await cli('user:create', '--username', 'taken', '--password', 'long-secret', '--display-name', 'Taken');
    expect(await cli('user:create', '--username', 'TAKEN', '--password', 'long-secret', '--display-name', 'Again')).toEqual({
      code: 1,
      out: '',
      err: 'Error: Username already exists',
    });
    const invalid = await cli('user:create', '--username', 'ab', '--password', '123', '--display-name', 'X', '--email', 'nope');
    expect(invalid.code).toBe(1);
    expect(invalid.err).toContain('Username must be at least 3 characters');
    expect(invalid.err).toContain('Password must be at least 6 characters');
    expect(invalid.err).toContain('Display name must be at least 2 characters');
    expect(invalid.err).toContain('Please enter a valid email address');
    expect(await cli('user:plan', '--username', 'taken', '--plan', 'gold')).toMatchObject({
      code: 1,
      err: 'Error: Unknown plan "gold". Plans: apprentice, wordsmith, loremaster, legendary',
    });
    expect(await cli('user:plan', '--username', 'nobody', '--plan', 'wordsmith')).toMatchObject({ code: 1, err: 'Error: No user named "nobody"' });
    expect((await cli('user:create', '--username', 'x')).code).toBe(2);
    expect((await cli('user:list', '--bogus')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('help')).code).toBe(0);
  });

  it.skipIf(onPostgres)('backs up a consistent copy while the server is writing, and never overwrites a file', async () => {
    const app = await buildApp(testConfig({ databaseFile }));
    try {
      for (let i = 0; i < 5; i++) {
        const res = await app.inject({ method: 'POST', url: '/api/register', payload: { username: `writer${i}`, password: 'sesame-42x', displayName: 'Writer' } });
        expect(res.statusCode).toBe(201);
      }
      const out = path.join(dataDir, 'backup.db');
      const result = await cli('backup', '--out', out);
      expect(result.code).toBe(0);
      expect(result.out).toContain('integrity ok');

      const copy = new Database(out, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.prepare('select count(*) as n from users').get()).toEqual({ n: 5 });
      } finally {
        copy.close();
      }

      const before = fs.readFileSync(out);
      expect(await cli('backup', '--out', out)).toMatchObject({ code: 1, err: `Error: ${out} already exists; choose a new file name` });
      expect(fs.readFileSync(out).equals(before)).toBe(true);
      expect((await cli('backup', '--out', path.join(dataDir, 'no-such-dir', 'b.db'))).code).toBe(1);
    } finally {
      await app.close();
    }
  });

  it.skipIf(!onPostgres)('backup refuses on PostgreSQL and points to pg_dump', async () => {
    const app = await serverApp();
    try {
      const result = await cli('backup', '--out', path.join(dataDir, 'backup.db'));
      expect(result.code).toBe(1);
      expect(result.err).toContain('pg_dump');
    } finally {
      await app.close();
    }
  });

  it('with a DATABASE_URL it cannot use: one line naming the problem, never the password', async () => {
    databaseUrl = 'postgres://ops:hunter2-secret@127.0.0.1:1/chronicler';
    const result = await cli('user:list');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/connection refused/);
    expect(result.err).not.toContain('hunter2-secret');
  });

  it('as a process: exits non-zero with one line and no stack trace on a mistake', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'user:plan', '--username', 'nobody', '--plan', 'gold'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_FILE: '' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('Error: Unknown plan "gold". Plans: apprentice, wordsmith, loremaster, legendary');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('support:list shows premium support requests, newest first, with who sent them', async () => {
    const app = await serverApp();
    try {
      await app.ready();
      expect(await cli('support:list')).toMatchObject({ code: 0, out: 'No support requests.' });
      await cli('user:create', '--username', 'helpme', '--password', 'long-secret', '--display-name', 'Needs Help', '--email', 'h@example.org');
      const user = await app.deps.database.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
      const { insertSupportRequest } = await import('../src/billing/store.ts');
      await insertSupportRequest(app.deps.database.db, { userId: user.id, subject: 'Lost chapter', message: 'Line one\nLine two', now: Date.parse('2026-11-20T10:00:00Z') });
      await insertSupportRequest(app.deps.database.db, { userId: user.id, subject: 'Export', message: 'DOCX please', now: Date.parse('2026-11-21T10:00:00Z') });
      const listed = await cli('support:list');
      expect(listed.code).toBe(0);
      expect(listed.out.indexOf('Subject: Export')).toBeLessThan(listed.out.indexOf('Subject: Lost chapter'));
      expect(listed.out).toContain('helpme <h@example.org>');
      expect(listed.out).toContain('  Line two');
      expect(await cli('support:list', '--limit', 'x')).toMatchObject({ code: 1 });
    } finally {
      await app.close();
    }
  });
});

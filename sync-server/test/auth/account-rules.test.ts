/**
 * Account rules: common passwords are refused with a clear message, and look-alike usernames
 * cannot register beside each other; accounts made before the skeleton column still sign in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { COMMON_PASSWORD_MESSAGE, usernameSkeletonOf } from '../../src/auth/account-rules.ts';
import { onPostgres, type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { undoMigrationsFrom } from '../support/undo-migrations.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const register = (username: string, password: string) =>
  t!.app.inject({ method: 'POST', url: '/api/register', payload: { username, password, displayName: 'Someone' } });

describe('passwords', () => {
  it('refuses the most common passwords with a clear message, and keeps the 6-character message for short ones', async () => {
    t = await createTestApp();
    for (const password of ['123456', 'password', 'qwerty123', 'Password1', 'iloveyou', 'letmein1']) {
      const res = await register(`common_${password.length}_${password.charCodeAt(0)}`, password);
      expect(res.statusCode, password).toBe(422);
      expect(json(res)).toEqual({ message: COMMON_PASSWORD_MESSAGE, code: 'VALIDATION_FAILED', fields: { password: COMMON_PASSWORD_MESSAGE } });
    }
    const short = await register('shorty', '12345');
    expect(short.statusCode).toBe(422);
    expect(json(short).fields.password).toBe('Password must be at least 6 characters');
    expect(await t.app.deps.database.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect((await register('fine', 'lanterns over the harbour')).statusCode).toBe(201);
  });
});

describe('usernames', () => {
  it('folds confusable characters: аlice (Cyrillic а) cannot register beside alice', async () => {
    t = await createTestApp();
    expect((await register('alice', 'lanterns over the harbour')).statusCode).toBe(201);
    for (const lookalike of ['\u0430lice', 'ALICE', '\u0430lic\u0435', '\uff41lice']) {
      const res = await register(lookalike, 'lanterns over the harbour');
      expect(res.statusCode, JSON.stringify(lookalike)).toBe(409);
      expect(json(res).code).toBe('USERNAME_TAKEN');
    }
    expect((await register('mary', 'lanterns over the harbour')).statusCode).toBe(201);
    expect((await register('rnary', 'lanterns over the harbour')).statusCode).toBe(409);
    expect(usernameSkeletonOf('\u0430lice')).toBe(usernameSkeletonOf('alice'));
    expect(usernameSkeletonOf('alicia')).not.toBe(usernameSkeletonOf('alice'));
  });

  // SQLite's file and connection itself (the PostgreSQL storage has its own tests: test/db/postgres/).
  it.skipIf(onPostgres)('accounts from before the skeleton column are backfilled and sign in as before', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-skeleton-'));
    const file = path.join(dir, 'db.sqlite');
    try {
      // A database of the first schema version with an account, then the new migration on top.
      t = await createTestApp({ databaseFile: file });
      const old = await signUp(t.app, { username: 'Legacy\u0430', password: 'lanterns over the harbour' });
      await t.close();
      t = undefined;
      const raw = await openDatabase(file);
      raw.sqlite!.prepare('update users set username_skeleton = null').run();
      raw.sqlite!.prepare("delete from kysely_migration where name like '0003_%'").run();
      raw.sqlite!.prepare('drop index users_username_skeleton').run();
      raw.sqlite!.prepare('alter table users drop column username_skeleton').run();
      raw.sqlite!.prepare('alter table sessions drop column user_agent').run();
      // …and every later migration (they re-run in order after 0003).
      undoMigrationsFrom(raw.sqlite!, '0004');
      const seqBefore = Number((raw.sqlite!.prepare("select value from sync_state where name = 'seq'").get() as { value: number }).value);
      await raw.close();

      t = await createTestApp({ databaseFile: file });
      const row = await t.app.deps.database.db.selectFrom('users').select(['usernameSkeleton']).where('id', '=', old.user.id).executeTakeFirstOrThrow();
      expect(row.usernameSkeleton).toBe(usernameSkeletonOf('Legacy\u0430'));
      // Migration 0004 gives the existing record a new seq, so devices already synced receive it.
      const record = await t.app.deps.database.db.selectFrom('users').select(['rev', 'userId', 'timeZone']).where('id', '=', old.user.id).executeTakeFirstOrThrow();
      expect(record).toEqual({ rev: seqBefore + 1, userId: old.user.id, timeZone: null });
      const feed = await t.app.inject({ method: 'GET', url: `/api/sync/changes?since=${seqBefore}`, headers: { cookie: old.cookie } });
      expect(JSON.parse(feed.body).changes.users).toEqual([expect.objectContaining({ id: old.user.id, rev: seqBefore + 1 })]);
      const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'legacy\u0430', password: 'lanterns over the harbour' } });
      expect(login.statusCode).toBe(200);
      expect((await register('legacya', 'lanterns over the harbour')).statusCode).toBe(409);
    } finally {
      await t?.close();
      t = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

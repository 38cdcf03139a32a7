/**
 * Account rules: common passwords are refused with a clear message, and look-alike usernames
 * cannot register beside each other; accounts made before the skeleton column still sign in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  PRODUCT_NAME_PASSWORD_MESSAGE,
  USERNAME_PASSWORD_MESSAGE,
  usernameSkeletonOf,
} from '../../src/auth/account-rules.ts';
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

describe('passwords that name the app or the author', () => {
  it('refuses the app name and the username, dressed with case, digits or punctuation, at register and at a change', async () => {
    t = await createTestApp();
    for (const password of ['chronicler', 'Chronicler2026!', 'CHRONICLER_1']) {
      const res = await register(`named_${password.length}`, password);
      expect(res.statusCode, password).toBe(422);
      expect(json(res)).toEqual({ message: PRODUCT_NAME_PASSWORD_MESSAGE, code: 'VALIDATION_FAILED', fields: { password: PRODUCT_NAME_PASSWORD_MESSAGE } });
    }
    for (const password of ['quillfeather', 'QuillFeather99', 'quill.feather!']) {
      const res = await register('QuillFeather', password);
      expect(res.statusCode, password).toBe(422);
      expect(json(res).fields).toEqual({ password: USERNAME_PASSWORD_MESSAGE });
    }
    // A username without letters is compared whole.
    expect(json(await register('8302917465', '8302917465')).fields).toEqual({ password: USERNAME_PASSWORD_MESSAGE });
    expect(await t.app.deps.database.db.selectFrom('users').select('id').execute()).toEqual([]);

    const author = await signUp(t.app, { username: 'QuillFeather', password: 'lanterns over the harbour' });
    const change = (newPassword: string) =>
      t!.app.inject({
        method: 'POST',
        url: '/api/user/password',
        headers: { cookie: author.cookie },
        payload: { currentPassword: 'lanterns over the harbour', newPassword },
      });
    expect(json(await change('Quill-Feather-1')).fields).toEqual({ newPassword: USERNAME_PASSWORD_MESSAGE });
    expect(json(await change('chronicler!!')).fields).toEqual({ newPassword: PRODUCT_NAME_PASSWORD_MESSAGE });
    // A password that merely contains a name is the author's choice.
    expect((await change('quillfeather writes at dawn')).statusCode).toBe(200);
  });
});

describe('usernames', () => {
  it('folds Latin look-alikes: capital I and l, vv and w, cl and d, rn and m', async () => {
    t = await createTestApp();
    const pairs = [
      ['Ilsa', 'llsa'],
      ['wren', 'vvren'],
      ['dusk', 'clusk'],
      ['morrow', 'rnorrow'],
    ] as const;
    for (const [first, lookalike] of pairs) {
      expect((await register(first, 'lanterns over the harbour')).statusCode, first).toBe(201);
      const res = await register(lookalike, 'lanterns over the harbour');
      expect(res.statusCode, lookalike).toBe(409);
      expect(json(res).code).toBe('USERNAME_TAKEN');
    }
    // The other way round too: the look-alike came first.
    expect((await register('vvillow', 'lanterns over the harbour')).statusCode).toBe(201);
    expect((await register('Willow', 'lanterns over the harbour')).statusCode).toBe(409);
    // Small i does not look like l: both may exist.
    expect((await register('ilka', 'lanterns over the harbour')).statusCode).toBe(201);
    expect((await register('llka', 'lanterns over the harbour')).statusCode).toBe(201);
    expect(usernameSkeletonOf('Ilsa')).toBe(usernameSkeletonOf('llsa'));
    expect(usernameSkeletonOf('ilsa')).not.toBe(usernameSkeletonOf('llsa'));
  });

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

/**
 * PostgreSQL going away and coming back (docs/server.md#postgresql), through a TCP relay in front of
 * the test server that this test cuts and restores (the shared server itself is never stopped):
 * requests answer 503 with the fixed message and nothing of PostgreSQL's text, the pool reconnects
 * on its own, and a write retried with its Idempotency-Key is applied exactly once. Also the start:
 * a malformed or unreachable DATABASE_URL stops it with a message that names what is wrong and
 * never the password.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@chronicler/schema';
import { buildApp } from '../../../src/app.ts';
import { testConfig, testDatabaseUrl } from '../../../src/config/config.ts';
import { STORAGE_UNAVAILABLE_MESSAGE } from '../../../src/http/errors.ts';
import { type TestApp, createTestApp, json, onPostgres, signUp } from '../../support/helpers.ts';

interface Relay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored on the same port. */
async function relayTo(host: string, port: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  let server: net.Server;
  let listenPort = 0;
  let up = false;
  const listen = () =>
    new Promise<void>((resolve) => {
      if (up) return resolve();
      up = true;
      server = net.createServer((client) => {
        const upstream = net.connect(port, host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(listenPort, '127.0.0.1', () => {
        listenPort = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  const cut = () =>
    new Promise<void>((resolve) => {
      if (!up) return resolve();
      up = false;
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return { port: listenPort, cut, restore: listen, close: cut };
}

let t: TestApp | undefined;
let relay: Relay | undefined;
afterEach(async () => {
  await relay?.restore().catch(() => undefined);
  await t?.close();
  await relay?.close();
  t = undefined;
  relay = undefined;
});

describe.skipIf(!onPostgres)('PostgreSQL unavailable', () => {
  it('answers 503 without PostgreSQL’s text while it is gone, recovers on its own, and applies a retried write once', async () => {
    const target = new URL(testDatabaseUrl()!);
    relay = await relayTo(target.hostname, Number(target.port || 5432));
    const viaRelay = new URL(target);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    t = await createTestApp({ databaseUrl: viaRelay.toString() });
    const author = await signUp(t.app, { plan: 'legendary' });
    const write = (key: string) => t!.app.inject({ method: 'POST', url: '/api/series', headers: { ...author.headers, 'idempotency-key': key }, payload: { title: 'Through the outage' } });

    await relay.cut();
    const health = () => t!.app.inject({ method: 'GET', url: '/api/health' });
    for (const res of [await write('k1'), await t.app.inject({ method: 'GET', url: '/api/series', headers: { cookie: author.cookie } }), await health()]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(json(res)).toEqual({ message: STORAGE_UNAVAILABLE_MESSAGE, code: ERROR_CODES.internal });
      expect(res.body).not.toMatch(/ECONN|postgres|pg_|SQL|terminat|at \//i);
    }

    await relay.restore();
    expect((await health()).statusCode).toBe(200);
    const first = await write('k1');
    expect(first.statusCode, first.body).toBe(201);
    const again = await write('k1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const list = await t.app.inject({ method: 'GET', url: '/api/series', headers: { cookie: author.cookie } });
    expect(json<unknown[]>(list).filter((s: any) => s.title === 'Through the outage')).toHaveLength(1);
  });

  it('stops the start with a message naming what is wrong, never the password', async () => {
    const good = new URL(testDatabaseUrl()!);
    const cases: Array<[string, RegExp]> = [
      ['postgres://user:s3cret-pass@', /not a valid URL|names no host/],
      ['postgres://user:s3cret-pass@localhost:5432/', /names no database/],
      ['postgres://user:s3cret-pass@127.0.0.1:1/chronicler', /connection refused/],
      [`postgres://${good.username}:s3cret-pass@${good.host}/chronicler_never_made`, /password was refused|does not exist/],
    ];
    for (const [url, problem] of cases) {
      const error = await buildApp(testConfig({ databaseUrl: url, throwawayDatabase: false })).then(
        () => null,
        (e: Error) => e,
      );
      expect(error, url).not.toBeNull();
      expect(error!.message).toMatch(problem);
      expect(error!.message).not.toContain('s3cret-pass');
    }
  });
});

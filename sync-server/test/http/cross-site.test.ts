/**
 * Cross-site requests: a foreign page cannot sign the author out or write with a `text/plain` body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const stillSignedIn = async (cookie: string) => (await t!.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).statusCode === 200;

describe('cross-site requests and non-JSON bodies', () => {
  it('a cross-site text/plain POST /api/logout is refused and the session survives', async () => {
    t = await createTestApp();
    const author = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: author.cookie, 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(403);
    expect(json(res).code).toBe('FORBIDDEN');
    expect(res.cookies.find((c) => c.name === 'chronicler_session')).toBeUndefined();
    expect(await stillSignedIn(author.cookie)).toBe(true);
  });

  it('judges by Sec-Fetch-Site: same-origin and none pass, same-site and cross-site do not', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const post = (site: string) =>
      t!.app.inject({ method: 'POST', url: '/api/series', headers: { ...author.headers, 'sec-fetch-site': site }, payload: { title: site } });
    expect((await post('same-origin')).statusCode).toBe(201);
    expect((await post('none')).statusCode).toBe(201);
    expect((await post('same-site')).statusCode).toBe(403);
    expect((await post('cross-site')).statusCode).toBe(403);
    // Reads are not refused (a link from elsewhere may open the app).
    const read = await t.app.inject({ method: 'GET', url: '/api/series', headers: { cookie: author.cookie, 'sec-fetch-site': 'cross-site' } });
    expect(read.statusCode).toBe(200);
  });

  it('falls back to Origin when Sec-Fetch-Site is absent', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    const post = (origin: string) =>
      t!.app.inject({ method: 'POST', url: '/api/series', headers: { ...author.headers, host: 'books.example:8443', origin }, payload: { title: origin } });
    expect((await post('https://books.example:8443')).statusCode).toBe(201);
    expect((await post('https://evil.example')).statusCode).toBe(403);
    expect((await post('https://books.example')).statusCode).toBe(403);
    expect((await post('null')).statusCode).toBe(403);
    // No Origin and no Sec-Fetch-Site: not a browser page (curl, scripts).
    expect((await t.app.inject({ method: 'POST', url: '/api/series', headers: author.headers, payload: { title: 'cli' } })).statusCode).toBe(201);
    const logout = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: author.cookie, origin: 'https://evil.example' } });
    expect(logout.statusCode).toBe(403);
    expect(await stillSignedIn(author.cookie)).toBe(true);
  });

  it('answers 415 for text/plain, form and other non-JSON bodies, even same-origin', async () => {
    t = await createTestApp();
    const author = await signUp(t.app, { plan: 'legendary' });
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/series',
        headers: { cookie: author.cookie, 'content-type': type, 'sec-fetch-site': 'same-origin' },
        payload: '{"title":"smuggled"}',
      });
      expect(res.statusCode, type).toBe(415);
      expect(json(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const logout = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: author.cookie, 'content-type': 'text/plain' }, payload: '' });
    expect(logout.statusCode).toBe(415);
    expect(await stillSignedIn(author.cookie)).toBe(true);
    // JSON in any letter case passes; so does a body-less write with no content type.
    const upper = await t.app.inject({ method: 'POST', url: '/api/series', headers: { cookie: author.cookie, 'content-type': 'Application/JSON' }, payload: '{"title":"ok"}' });
    expect(upper.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: author.cookie } })).statusCode).toBe(200);
  });
});

/**
 * Shared series for the live-collaboration tests: an owner, a member of a role, a chapter, and
 * the named events their streams hear.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { PresenceEventData } from '@chronicler/schema';
import { type SignedIn, json, signUp, uniqueUsername } from './helpers.ts';
import type { EventStream, ServerSentEvent } from './event-stream.ts';

/** The next `event` on `stream` (that `matches`), skipping others; within `withinMs` (a second). */
export async function nextNamed(stream: EventStream, event: string, matches: (e: ServerSentEvent) => boolean = () => true, withinMs = 1_000): Promise<ServerSentEvent> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const e = await stream.next(Math.max(1, deadline - Date.now()));
    if (e.event === event && matches(e)) return e;
  }
}

export const presenceOf = (e: ServerSentEvent) => JSON.parse(e.data) as PresenceEventData;

export async function call(app: FastifyInstance, who: SignedIn, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  const res = await app.inject({ method, url, headers: payload === undefined ? { cookie: who.cookie } : who.headers, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return json(res);
}

export const person = (app: FastifyInstance, plan: 'apprentice' | 'loremaster' = 'apprentice') => {
  const username = uniqueUsername('live');
  return signUp(app, { username, email: `${username}@example.com`, displayName: `Name ${username}`, plan });
};

/** An owner's shared series with one chapter and a member of `role`. */
export async function sharedChapter(app: FastifyInstance, role = 'editor') {
  const owner = await person(app, 'loremaster');
  const member = await person(app);
  const series = await call(app, owner, 'POST', '/api/collaboration/series', { name: 'Live Saga', description: 'Written together, live.' });
  const book = await call(app, owner, 'POST', '/api/books', { seriesId: series.id, title: 'One' });
  const chapter = await call(app, owner, 'POST', '/api/chapters', { bookId: book.id, title: 'Together' });
  const invite = await call(app, owner, 'POST', `/api/collaboration/series/${series.id}/invites`, { inviteeEmail: member.user.email, role });
  await call(app, member, 'POST', `/api/collaboration/invites/${invite.id}/accept`);
  return { owner, member, seriesId: series.id as string, url: `/api/collaboration/chapters/${chapter.id}/presence`, chapterId: chapter.id as string };
}


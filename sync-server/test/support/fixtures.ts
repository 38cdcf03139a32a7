/**
 * Two authors, A and B, each with one of everything, made through the API (never by writing
 * rows directly), so the authz matrix and the fuzz tests have real own/foreign ids to aim at.
 * Both are legendary, so plan limits and feature gates never answer before the access check.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type SignedIn, TEST_PASSWORD, signUp } from './helpers.ts';
import { send } from './routes.ts';
import { giftCodeBoughtBy } from './billing-fixtures.ts';
import { pngBytes } from '@chronicler/schema/media/testing';

/** The entity kinds a path or body id can name. */
export const ID_KINDS = [
  'series', 'book', 'chapter', 'character', 'relationship', 'location', 'event', 'conflict', 'canonChange', 'worldEntry',
  'invite', 'sentInvite', 'member', 'sharedSeries', 'picture',
] as const;
export type IdKind = (typeof ID_KINDS)[number];

export type SideIds = Record<IdKind, string> & {
  /** A second character, for relationships and events. */
  character2: string;
  /** A second world entry (a culture), for links between entries. */
  worldEntry2: string;
  /** A second chapter of the same book, for reorders. */
  chapter2: string;
  /** A revision number of `chapter` that exists (the chapter history). */
  chapterRev: number;
  /** The token of a single-use invite link to a third author's series. */
  inviteLinkToken: string;
  /** The shown id of a second session of the side's author (another device), to end by id. */
  session: string;
  /** A gift code the side's author bought (billing), to redeem. */
  giftCode: string;
  /** A backup snapshot the server keeps for the side's author (Back up now). */
  backup: string;
};

export interface Side extends SignedIn {
  ids: SideIds;
}

export interface World {
  a: Side;
  b: Side;
}

/** A picture of the side's own (its colour from the username), so the two sides' pictures differ. */
export function sidePicture(side: { user: { username: string } }): Uint8Array {
  const [r, g, b] = crypto.createHash('sha256').update(side.user.username).digest();
  return pngBytes({ width: 2, height: 2, rgb: [r!, g!, b!] });
}

/** Uploads the side's picture into its series (src/media/plugin.ts); answers its SHA-256. */
async function uploadSidePicture(app: FastifyInstance, who: SignedIn, seriesId: string): Promise<string> {
  const bytes = sidePicture(who);
  const hash = crypto.createHash('sha256').update(bytes).digest('hex');
  const res = await send(app, { method: 'PUT', url: `/api/series/${seriesId}/media/${hash}`, headers: { cookie: who.cookie, 'content-type': 'image/png' }, payload: Buffer.from(bytes) });
  if (res.status !== 201) throw new Error(`fixture: picture upload → ${res.status} ${res.body}`);
  return hash;
}

/** A well-formed id that names nothing. */
export function unknownId(): string {
  const hex = crypto.randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

async function call(app: FastifyInstance, who: SignedIn, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await send(app, {
    method: method as 'GET',
    url,
    headers: { ...(payload === undefined ? { cookie: who.cookie } : who.headers), ...headers },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  if (res.status < 200 || res.status > 299) throw new Error(`fixture ${method} ${url} → ${res.status} ${res.body}`);
  return res.body ? (JSON.parse(res.body) as any) : null;
}

/** The row an answer carries: the body itself, or a single object field of it. */
function rowOf(body: any): any {
  if (body && typeof body.id === 'string') return body;
  for (const value of Object.values(body ?? {})) {
    if (value && typeof value === 'object' && typeof (value as any).id === 'string') return value;
  }
  throw new Error(`no row in answer ${JSON.stringify(body).slice(0, 300)}`);
}

/** Text of a chapter in paragraphs, so concurrent edits of one paragraph conflict. */
const PARAGRAPHS = ['The first paragraph of the draft.', 'The middle paragraph stays.', 'The last paragraph ends it.'];

/** Makes one author with one of everything. */
export async function createSide(app: FastifyInstance, tag: string): Promise<Side> {
  // The username doubles as a marker in every title and text of the side, and is a secret (see
  // secretsOf): any answer to the other author that contains it leaked text.
  tag = `${tag}_${crypto.randomBytes(6).toString('hex')}`;
  const who = await signUp(app, { plan: 'legendary', username: tag, email: `${tag}@example.com` });
  const series = rowOf(await call(app, who, 'POST', '/api/series', { title: `Series of ${tag}`, description: `About ${tag}`, totalBooks: 3 }));
  const book = rowOf(await call(app, who, 'POST', '/api/books', { seriesId: series.id, title: `Book of ${tag}`, description: 'A book' }));
  const chapter = rowOf(
    await call(app, who, 'POST', '/api/chapters', { bookId: book.id, title: `Chapter of ${tag}`, content: PARAGRAPHS.join('\n\n'), status: 'draft' }),
  );
  const chapter2 = rowOf(await call(app, who, 'POST', '/api/chapters', { bookId: book.id, title: `Second chapter of ${tag}`, content: 'Two.' }));
  const character = rowOf(await call(app, who, 'POST', '/api/characters', { seriesId: series.id, name: `Hero of ${tag}`, role: 'protagonist', isProtagonist: true, bookAppearances: [1] }));
  const character2 = rowOf(await call(app, who, 'POST', '/api/characters', { seriesId: series.id, name: `Villain of ${tag}`, role: 'antagonist', bookAppearances: [] }));
  const relationship = rowOf(
    await call(app, who, 'POST', '/api/character-relationships', {
      sourceCharacterId: character.id,
      targetCharacterId: character2.id,
      relationshipType: 'enemy',
      description: 'Sworn enemies',
    }),
  );
  const location = rowOf(await call(app, who, 'POST', '/api/locations', { seriesId: series.id, name: `Castle of ${tag}`, locationType: 'castle' }));
  const event = rowOf(
    await call(app, who, 'POST', '/api/timeline-events', {
      seriesId: series.id,
      title: `Battle of ${tag}`,
      bookId: book.id,
      chapterId: chapter.id,
      characterIds: [character.id, character2.id],
      locationId: location.id,
    }),
  );
  const canonChange = rowOf(
    await call(app, who, 'POST', '/api/canon-changes', {
      seriesId: series.id,
      entityKind: 'character',
      entityId: character2.id,
      field: 'status',
      value: 'deceased',
      bookId: book.id,
      chapterId: chapter.id,
      timelineEventId: event.id,
      note: `Falls at the battle of ${tag}`,
    }),
  );
  const worldEntry2 = rowOf(
    await call(app, who, 'POST', '/api/world-entries', { seriesId: series.id, category: 'culture', name: `People of ${tag}`, beliefs: `The ${tag} tide`, locationIds: [location.id] }),
  );
  const worldEntry = rowOf(
    await call(app, who, 'POST', '/api/world-entries', {
      seriesId: series.id,
      category: 'politics',
      name: `Guild of ${tag}`,
      summary: `Masters of ${tag}`,
      goals: `Rule the ${tag} coast`,
      leaderId: character.id,
      characterIds: [character.id, character2.id],
      locationIds: [location.id],
      entryIds: [worldEntry2.id],
      allyIds: [worldEntry2.id],
    }),
  );
  const conflict = await provokeConflict(app, who, chapter);
  const collaboration = await collaborationOf(app, who, series.id, tag);
  const ids: SideIds = {
    ...collaboration,
    series: series.id,
    book: book.id,
    chapter: chapter.id,
    chapter2: chapter2.id,
    character: character.id,
    character2: character2.id,
    relationship: relationship.id,
    location: location.id,
    event: event.id,
    canonChange: canonChange.id,
    worldEntry: worldEntry.id,
    worldEntry2: worldEntry2.id,
    conflict: conflict.conflictId,
    chapterRev: conflict.revAfterFirstEdit,
    session: await secondSessionId(app, who),
    giftCode: await giftCodeBoughtBy(app, who),
    backup: rowOf(await call(app, who, 'POST', '/api/backups')).id,
    picture: await uploadSidePicture(app, who, series.id),
  };
  return { ...who, ids };
}

/**
 * The side's part in collaboration: an editor `member` of its series, an invite it sent
 * (`sentInvite`), and, from a third author, a pending `invite` to it and a `sharedSeries` it edits.
 */
async function collaborationOf(app: FastifyInstance, who: SignedIn, seriesId: string, tag: string) {
  const member = await signUp(app, { username: `${tag}_member`, email: `${tag}_member@example.com` });
  const memberInvite = await call(app, who, 'POST', `/api/collaboration/series/${seriesId}/invites`, { inviteeEmail: member.user.email, role: 'editor' });
  await call(app, member, 'POST', `/api/collaboration/invites/${memberInvite.id}/accept`);
  const sentInvite = await call(app, who, 'POST', `/api/collaboration/series/${seriesId}/invites`, { inviteeEmail: `${tag}_guest@example.com`, role: 'viewer' });
  const host = await signUp(app, { plan: 'loremaster', username: `${tag}_host` });
  const hosted = (name: string) => call(app, host, 'POST', '/api/collaboration/series', { name, description: 'A series of the host author.' });
  const shared = await hosted('Hosted shared series');
  const joined = await call(app, host, 'POST', `/api/collaboration/series/${shared.id}/invites`, { inviteeEmail: who.user.email, role: 'editor' });
  await call(app, who, 'POST', `/api/collaboration/invites/${joined.id}/accept`);
  const pendingIn = await hosted('Hosted series with an invite');
  const invite = await call(app, host, 'POST', `/api/collaboration/series/${pendingIn.id}/invites`, { inviteeEmail: who.user.email, role: 'viewer' });
  const link = await call(app, host, 'POST', `/api/collaboration/series/${pendingIn.id}/invite-links`, { role: 'viewer' });
  return { inviteLinkToken: link.token as string, member: member.user.id as string, sentInvite: sentInvite.id as string, sharedSeries: shared.id as string, invite: invite.id as string };
}

/** Signs the author in once more (another device) and answers that session's shown id. */
async function secondSessionId(app: FastifyInstance, who: SignedIn): Promise<string> {
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: who.user.username, password: TEST_PASSWORD } });
  const token = login.cookies.find((c) => c.name === 'chronicler_session')?.value;
  if (login.statusCode !== 200 || !token) throw new Error(`fixture: second sign-in failed: ${login.statusCode} ${login.body}`);
  const list = await call(app, { ...who, cookie: `chronicler_session=${token}` }, 'GET', '/api/user/sessions');
  const current = (list.sessions as Array<{ id: string; current: boolean }>).find((s) => s.current);
  if (!current) throw new Error('fixture: the second session is not listed');
  return current.id;
}

/**
 * Two edits of the same paragraph from the same base revision: the second cannot merge and is
 * kept as a conflict copy (docs/sync-protocol.md#chapter-text-merge).
 */
async function provokeConflict(app: FastifyInstance, who: SignedIn, chapter: { id: string; rev: number }) {
  const base = String(chapter.rev);
  const edit = (first: string) => ({ content: [first, ...PARAGRAPHS.slice(1)].join('\n\n') });
  const first = rowOf(await call(app, who, 'PUT', `/api/chapters/${chapter.id}`, edit('The first paragraph, as edited on the laptop.'), { 'x-base-rev': base }));
  const second = await call(app, who, 'PUT', `/api/chapters/${chapter.id}`, edit('The first paragraph, as edited on the phone.'), { 'x-base-rev': base });
  let conflictId: string | undefined = second?.conflictId ?? second?.conflict?.id;
  if (!conflictId) {
    const row = await app.deps.database.db.selectFrom('chapterConflicts').select('id').where('chapterId', '=', chapter.id).executeTakeFirst();
    conflictId = row?.id;
  }
  if (!conflictId) throw new Error(`fixture: no conflict copy after concurrent edits: ${JSON.stringify(second).slice(0, 300)}`);
  return { conflictId, revAfterFirstEdit: Number(first.rev) };
}

/** Story tables with a series column; `series` itself is keyed by `id`. */
const SERIES_SCOPED_TABLES = ['books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents', 'chapterConflicts', 'canonChanges', 'worldEntries'] as const;

/**
 * What another author must never see of `side`: the user id and username and the id of every row
 * in the series the user owns, read from the database (so rows the tests created count too).
 */
export async function secretsOf(app: FastifyInstance, side: Side): Promise<Set<string>> {
  const { db } = app.deps.database;
  const out = new Set<string>([side.user.id, side.user.username]);
  const owned = await db.selectFrom('series').select('id').where('ownerId', '=', side.user.id).execute();
  const seriesIds = owned.map((r) => r.id);
  for (const id of seriesIds) out.add(id);
  if (seriesIds.length > 0) {
    for (const table of SERIES_SCOPED_TABLES) {
      const rows = await db.selectFrom(table).select('id').where('seriesId', 'in', seriesIds).execute();
      for (const row of rows) out.add(row.id);
    }
    const pictures = await db.selectFrom('seriesMedia').select('sha256').where('seriesId', 'in', seriesIds).execute();
    for (const row of pictures) out.add(row.sha256);
  }
  return out;
}

export async function createWorld(app: FastifyInstance): Promise<World> {
  const a = await createSide(app, 'alpha');
  const b = await createSide(app, 'bravo');
  return { a, b };
}

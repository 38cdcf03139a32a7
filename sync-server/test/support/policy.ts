/**
 * The access classification of every /api route, keyed `METHOD url` exactly as the route table
 * reports it. The authz matrix FAILS when the real route table has a route missing here (so a
 * new route cannot slip through unclassified) or when an entry here names no route any more.
 *
 * For each protected route: which entity kind each path parameter names, and a valid request
 * (body, query, headers) for the owner of those ids, so the owner case is a real success and
 * the foreign/unknown cases differ from it ONLY in whose ids they carry.
 */
import { type IdKind, type Side, sidePicture } from './fixtures.ts';
import { TEST_PASSWORD } from './helpers.ts';
import { writeArchive } from '../../src/backup/archive.ts';

/**
 * A path parameter: an entity id of a kind, or the number of a revision of the side's chapter, or
 * the SHA-256 an upload's bytes go by (`pictureHash`: not a stored row's id but the name of the
 * bytes the request carries, so it is never mixed with another side's ids).
 */
export type ParamKind = IdKind | 'chapterRev' | 'session' | 'backup' | 'pictureHash';

export interface ValidRequest {
  body?: unknown;
  /** Query string without '?'. */
  query?: string;
  /** A body of raw bytes instead of JSON (a picture upload). */
  raw?: { type: string; bytes: Uint8Array };
  headers?: Record<string, string>;
}

interface PolicyBase {
  /** A valid request for `side` (the owner of the path ids; the caller when there are none). */
  request?: (side: Side) => ValidRequest;
}

export interface PublicPolicy extends PolicyBase {
  access: 'public';
  /** What an anonymous caller gets with the valid request. */
  anonymous: number;
  /** What a signed-in caller gets with the valid request. */
  signedIn: number;
}

export interface ProtectedPolicy extends PolicyBase {
  access: 'protected';
  /** Which entity each `:param` names. Routes without params are reached through body ids or not at all. */
  params?: Record<string, ParamKind>;
}

export type RoutePolicy = PublicPolicy | ProtectedPolicy;

let unique = 0;
const freshName = (prefix: string) => `${prefix}_${process.pid}_${++unique}_${Math.random().toString(36).slice(2, 8)}`;

const register = (): ValidRequest => ({ body: { username: freshName('newcomer'), password: TEST_PASSWORD, displayName: 'New Author' } });
const login = (side: Side): ValidRequest => ({ body: { username: side.user.username, password: TEST_PASSWORD } });

export const ROUTE_POLICY: Record<string, RoutePolicy> = {
  // --- accounts (spec 000 §7) --------------------------------------------------------------
  'GET /api/health': { access: 'public', anonymous: 200, signedIn: 200 },
  'POST /api/register': { access: 'public', anonymous: 201, signedIn: 201, request: register },
  'POST /api/auth/register': { access: 'public', anonymous: 201, signedIn: 201, request: register },
  'POST /api/login': { access: 'public', anonymous: 200, signedIn: 200, request: login },
  'POST /api/auth/login': { access: 'public', anonymous: 200, signedIn: 200, request: login },
  'POST /api/logout': { access: 'public', anonymous: 200, signedIn: 200 },
  // Public in the sense that it answers anonymous callers: with 401, read as "no user".
  'GET /api/user': { access: 'public', anonymous: 401, signedIn: 200 },
  // The author's own sessions and password: a session id of another author is a 404.
  'GET /api/user/sessions': { access: 'protected' },
  'DELETE /api/user/sessions/:id': { access: 'protected', params: { id: 'session' } },
  'POST /api/user/sessions/sign-out-others': { access: 'protected' },
  'POST /api/logout/everywhere': { access: 'protected' },
  'POST /api/user/password': { access: 'protected', request: () => ({ body: { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD } }) },
  // The author's own record (a user-scoped synced row): no ids, only the caller's record changes.
  'PUT /api/user/settings': { access: 'protected', request: () => ({ body: { timeZone: 'Europe/Paris' } }) },

  // --- series and books (spec 001 §7) ------------------------------------------------------
  'GET /api/series': { access: 'protected' },
  'POST /api/series': { access: 'protected', request: () => ({ body: { title: 'Another series', description: 'More', totalBooks: 2 } }) },
  'GET /api/series/:id': { access: 'protected', params: { id: 'series' } },
  'DELETE /api/series/:id': { access: 'protected', params: { id: 'series' } },
  'PUT /api/series/:id': { access: 'protected', params: { id: 'series' }, request: () => ({ body: { name: 'Renamed series', description: 'New words' } }) },
  'GET /api/series/:id/books': { access: 'protected', params: { id: 'series' } },
  'GET /api/series/:id/trash': { access: 'protected', params: { id: 'series' } },
  'POST /api/books': { access: 'protected', request: (s) => ({ body: { seriesId: s.ids.series, title: 'Another book', description: 'x' } }) },
  'GET /api/books/:id': { access: 'protected', params: { id: 'book' } },
  'PUT /api/books/:id': { access: 'protected', params: { id: 'book' }, request: () => ({ body: { title: 'Renamed book', status: 'revision', trashed: false } }) },
  'DELETE /api/books/:id': { access: 'protected', params: { id: 'book' } },

  // --- chapters ----------------------------------------------------------------------------
  'GET /api/books/:id/chapters': { access: 'protected', params: { id: 'book' } },
  'GET /api/chapters/:id': { access: 'protected', params: { id: 'chapter' } },
  'POST /api/chapters': { access: 'protected', request: (s) => ({ body: { bookId: s.ids.book, title: 'Another chapter', content: 'Some words.' } }) },
  // `bookId` (a move, here to the book it is in) and `trashed` (docs/decisions/0014-trash-and-restructure.md) are fuzzed with the save.
  'PUT /api/chapters/:id': {
    access: 'protected',
    params: { id: 'chapter' },
    request: (s) => ({ body: { title: 'Edited chapter', content: 'Edited words.', bookId: s.ids.book, trashed: false } }),
  },
  'DELETE /api/chapters/:id': { access: 'protected', params: { id: 'chapter' } },
  'GET /api/chapters/:id/revisions': { access: 'protected', params: { id: 'chapter' }, request: () => ({ query: 'limit=10' }) },
  'GET /api/chapters/:id/revisions/:rev': { access: 'protected', params: { id: 'chapter', rev: 'chapterRev' } },
  'GET /api/chapters/:id/conflicts': { access: 'protected', params: { id: 'chapter' } },
  'DELETE /api/chapter-conflicts/:id': { access: 'protected', params: { id: 'conflict' } },
  'POST /api/chapters/reorder': {
    access: 'protected',
    request: (s) => ({ body: { chapters: [{ id: s.ids.chapter2, position: 1 }, { id: s.ids.chapter, position: 2 }] } }),
  },

  // --- characters and relationships ----------------------------------------------------------
  'GET /api/series/:id/characters': { access: 'protected', params: { id: 'series' } },
  'POST /api/characters': { access: 'protected', request: (s) => ({ body: { seriesId: s.ids.series, name: 'Sidekick', bookAppearances: [2] } }) },
  'GET /api/characters/:id': { access: 'protected', params: { id: 'character' } },
  'PUT /api/characters/:id': { access: 'protected', params: { id: 'character' }, request: () => ({ body: { isProtagonist: false } }) },
  'DELETE /api/characters/:id': { access: 'protected', params: { id: 'character' } },
  'GET /api/series/:id/character-relationships': { access: 'protected', params: { id: 'series' } },
  'POST /api/character-relationships': {
    access: 'protected',
    request: (s) => ({ body: { sourceCharacterId: s.ids.character2, targetCharacterId: s.ids.character, relationshipType: 'family' } }),
  },
  'PUT /api/character-relationships/:id': {
    access: 'protected',
    params: { id: 'relationship' },
    request: () => ({ body: { relationshipType: 'conflict', description: 'It got worse' } }),
  },
  'DELETE /api/character-relationships/:id': { access: 'protected', params: { id: 'relationship' } },

  // --- locations -----------------------------------------------------------------------------
  'GET /api/series/:id/locations': { access: 'protected', params: { id: 'series' } },
  'POST /api/locations': { access: 'protected', request: (s) => ({ body: { seriesId: s.ids.series, name: 'Harbour', locationType: 'town' } }) },
  'GET /api/locations/:id': { access: 'protected', params: { id: 'location' } },
  'PUT /api/locations/:id': { access: 'protected', params: { id: 'location' }, request: () => ({ body: { name: 'Old harbour', importance: 'main' } }) },
  'DELETE /api/locations/:id': { access: 'protected', params: { id: 'location' } },

  // --- timeline ------------------------------------------------------------------------------
  'GET /api/series/:id/timeline': { access: 'protected', params: { id: 'series' } },
  'GET /api/characters/:id/timeline': { access: 'protected', params: { id: 'character' } },
  'POST /api/timeline-events': {
    access: 'protected',
    request: (s) => ({ body: { seriesId: s.ids.series, title: 'Coronation', locationId: s.ids.location, characterIds: [s.ids.character] } }),
  },
  'GET /api/timeline-events/:id': { access: 'protected', params: { id: 'event' } },
  'PUT /api/timeline-events/:id': { access: 'protected', params: { id: 'event' }, request: () => ({ body: { title: 'Renamed battle', importance: 'major' } }) },
  'DELETE /api/timeline-events/:id': { access: 'protected', params: { id: 'event' } },
  'POST /api/timeline-events/reorder': { access: 'protected', request: (s) => ({ body: { events: [{ id: s.ids.event, position: 3 }] } }) },

  // --- canon changes (docs/decisions/0017-canon-changes.md) ------------------------------------
  'GET /api/series/:id/canon-changes': { access: 'protected', params: { id: 'series' } },
  'POST /api/canon-changes': {
    access: 'protected',
    request: (s) => ({
      body: { seriesId: s.ids.series, entityKind: 'character', entityId: s.ids.character, field: 'whereabouts', locationId: s.ids.location, bookId: s.ids.book, chapterId: s.ids.chapter2 },
    }),
  },
  'GET /api/canon-changes/:id': { access: 'protected', params: { id: 'canonChange' } },
  // `chapterId` re-anchors the change (its book follows) and is fuzzed with the value.
  'PUT /api/canon-changes/:id': { access: 'protected', params: { id: 'canonChange' }, request: (s) => ({ body: { value: 'missing', chapterId: s.ids.chapter2, note: 'Never found' } }) },
  'DELETE /api/canon-changes/:id': { access: 'protected', params: { id: 'canonChange' } },

  // --- world entries (docs/decisions/0020-world-entries.md) -----------------------------------
  'GET /api/series/:id/world-entries': { access: 'protected', params: { id: 'series' } },
  'POST /api/world-entries': {
    access: 'protected',
    request: (s) => ({
      body: { seriesId: s.ids.series, category: 'culture', name: 'Reed folk', language: 'Reed-speech', characterIds: [s.ids.character], locationIds: [s.ids.location], entryIds: [s.ids.worldEntry, s.ids.worldEntry2] },
    }),
  },
  'GET /api/world-entries/:id': { access: 'protected', params: { id: 'worldEntry' } },
  'PUT /api/world-entries/:id': { access: 'protected', params: { id: 'worldEntry' }, request: (s) => ({ body: { goals: 'Peace', leaderId: s.ids.character2, characterIds: [s.ids.character], enemyIds: [s.ids.worldEntry2] } }) },
  'DELETE /api/world-entries/:id': { access: 'protected', params: { id: 'worldEntry' } },

  // --- writing companion (spec 000 §7) -------------------------------------------------------
  'GET /api/ai/suggestions': { access: 'protected', request: (s) => ({ query: `seriesId=${s.ids.series}&bookId=${s.ids.book}` }) },
  'GET /api/ai/allowance': { access: 'protected' },
  'POST /api/ai/suggestion': { access: 'protected', request: (s) => ({ body: { seriesId: s.ids.series, bookId: s.ids.book, type: 'conflict' } }) },
  'POST /api/ai/analyze': {
    access: 'protected',
    request: () => ({ body: { content: 'The door was opened by the guard. She walked slowly to the window and saw the harbour lights go out one by one.' } }),
  },
  // --- collaboration (spec 001 §7) -----------------------------------------------------------
  'GET /api/collaboration/series': { access: 'protected' },
  'POST /api/collaboration/series': { access: 'protected', request: () => ({ body: { name: 'Shared saga', description: 'Written together by many.' } }) },
  'GET /api/collaboration/series/:seriesId/members': { access: 'protected', params: { seriesId: 'series' } },
  'GET /api/collaboration/series/:seriesId/activity': { access: 'protected', params: { seriesId: 'series' }, request: () => ({ query: 'limit=10' }) },
  'POST /api/collaboration/series/:seriesId/invites': {
    access: 'protected',
    params: { seriesId: 'series' },
    request: () => ({ body: { inviteeEmail: `matrix_${++unique}@example.com`, role: 'editor', message: 'Join us' } }),
  },
  'POST /api/collaboration/series/:seriesId/invite-links': { access: 'protected', params: { seriesId: 'series' }, request: () => ({ body: { role: 'viewer' } }) },
  'GET /api/collaboration/pending-invites': { access: 'protected' },
  'POST /api/collaboration/invites/:id/accept': { access: 'protected', params: { id: 'invite' } },
  'POST /api/collaboration/invites/:id/decline': { access: 'protected', params: { id: 'invite' } },
  'DELETE /api/collaboration/invites/:id': { access: 'protected', params: { id: 'sentInvite' } },
  // Reached through the token in its body, which only the link's holder knows.
  'POST /api/collaboration/invite-links/accept': { access: 'protected', request: (s) => ({ body: { token: s.ids.inviteLinkToken } }) },
  'PUT /api/collaboration/series/:seriesId/members/:userId': {
    access: 'protected',
    params: { seriesId: 'series', userId: 'member' },
    request: () => ({ body: { role: 'viewer' } }),
  },
  'DELETE /api/collaboration/series/:seriesId/members/:userId': { access: 'protected', params: { seriesId: 'series', userId: 'member' } },
  'POST /api/collaboration/series/:seriesId/leave': { access: 'protected', params: { seriesId: 'sharedSeries' } },
  'POST /api/collaboration/chapters/:id/presence': { access: 'protected', params: { id: 'chapter' } },
  'DELETE /api/collaboration/chapters/:id/presence': { access: 'protected', params: { id: 'chapter' } },
  'POST /api/collaboration/series/:seriesId/transfer': { access: 'protected', params: { seriesId: 'series' }, request: (s) => ({ body: { userId: s.ids.member } }) },

  // --- sync (docs/sync-protocol.md) ----------------------------------------------------------
  'GET /api/sync/changes': { access: 'protected', request: () => ({ query: 'since=0' }) },
  'GET /api/sync/events': { access: 'protected' },
  // Each entry runs through its own REST route: the matrix also replays every write through it.
  'POST /api/sync/batch': {
    access: 'protected',
    request: (s) => ({
      body: {
        entries: [
          { method: 'PUT', path: `/api/books/${s.ids.book}`, body: { title: 'Batched title' }, headers: { idempotencyKey: `batch-${s.ids.book}` } },
          { method: 'POST', path: '/api/characters', body: { seriesId: s.ids.series, name: 'Batched hero' } },
        ],
      },
    }),
  },

  // --- writing progress: every answer is the caller's own; no route takes an id ------------
  'GET /api/writing-stats': { access: 'protected', request: () => ({ query: 'period=week' }) },
  'GET /api/achievements': { access: 'protected' },
  'GET /api/user-achievements': { access: 'protected' },
  'POST /api/check-achievements': { access: 'protected' },
  'GET /api/writing-settings': { access: 'protected' },
  'GET /api/writing-activity': { access: 'protected' },
  'PUT /api/writing-settings': { access: 'protected', request: () => ({ body: { dayEndHour: 5, restDays: [0] } }) },
  // --- billing ---------------------------------------------------------------------------------
  'GET /api/subscription-plans': { access: 'protected' },
  'POST /api/subscriptions': { access: 'protected', request: () => ({ body: { planName: 'wordsmith', interval: 'monthly' } }) },
  'POST /api/create-payment-intent': { access: 'protected', request: () => ({ body: { items: [{ id: 'custom-theme-pack' }], amount: 4.99 } }) },
  'POST /api/billing/portal': { access: 'protected' },
  'GET /api/billing/status': { access: 'protected' },
  'POST /api/gifts/redeem': { access: 'protected', request: (s) => ({ body: { code: s.ids.giftCode } }) },
  'GET /api/support-requests': { access: 'protected' },
  'POST /api/support-requests': { access: 'protected', request: () => ({ body: { subject: 'Help', message: 'My export is stuck.' } }) },
  // Stripe has no session: verified by signature instead (a request without one is refused).
  'POST /api/stripe/webhook': { access: 'public', anonymous: 400, signedIn: 400, request: () => ({ body: { id: 'evt_1', type: 'invoice.paid' } }) },
  // --- backups ---------------------------------------------------------------------------------
  // The download holds only the caller's own series (the matrix checks no answer carries the
  // other's).
  'GET /api/backup': { access: 'protected' },
  // An empty archive restores nothing; archives naming the other author's ids are in test/backup/backup.test.ts.
  'POST /api/backup/restore': {
    access: 'protected',
    request: () => ({ body: { archive: Buffer.from(writeArchive({ rows: {}, chapterHistory: [] }, { username: 'someone', displayName: 'Someone' }, new Date())).toString('base64') } }),
  },
  'GET /api/backups': { access: 'protected' },
  'POST /api/backups': { access: 'protected' },
  'GET /api/backups/:id': { access: 'protected', params: { id: 'backup' } },
  'POST /api/backups/:id/restore': { access: 'protected', params: { id: 'backup' } },
  // --- pictures (docs/decisions/0022-pictures-on-the-server.md) ---------------------------------
  // The owner's upload is the picture its series keeps already: 200, kept once.
  'PUT /api/series/:seriesId/media/:sha256': {
    access: 'protected',
    params: { seriesId: 'series', sha256: 'pictureHash' },
    request: (s) => ({ raw: { type: 'image/png', bytes: sidePicture(s) } }),
  },
  'GET /api/series/:seriesId/media/:sha256': { access: 'protected', params: { seriesId: 'series', sha256: 'picture' } },
  'DELETE /api/series/:seriesId/media/:sha256': { access: 'protected', params: { seriesId: 'series', sha256: 'picture' } },
  'GET /api/media/usage': { access: 'protected' },
};

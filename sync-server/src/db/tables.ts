/**
 * Kysely table types. Columns are snake_case in SQL and camelCase here (CamelCasePlugin).
 * JSON arrays are stored as TEXT and (de)serialised by the entity registry.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

interface SyncedColumns {
  id: string;
  rev: number;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased NFKC username: uniqueness ignores case. */
  usernameKey: string;
  /** UTS #39 skeleton, case-folded: look-alike names cannot both register (null only before backfill). */
  usernameSkeleton: string | null;
  displayName: string;
  email: string | null;
  emailKey: string | null;
  plan: string;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
}

export interface SessionsTable {
  /** HMAC of the cookie token under the server secret: a leaked table cannot be replayed. */
  idHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  lastSeenAt: string;
  /** The browser's User-Agent when the session began (shown in the author's list of sessions). */
  userAgent: string | null;
}

export interface LoginThrottleTable {
  /** `ip:<addr>` or `user:<usernameKey>` */
  key: string;
  failures: number;
  windowStartedAt: number;
  lockedUntil: number;
}

export interface SyncStateTable {
  name: string;
  value: number;
}

export interface SeriesTable extends SyncedColumns {
  ownerId: string;
  title: string;
  description: string;
  totalBooks: number;
  currentBook: number;
  coverImage: string | null;
}

export interface SeriesMembersTable {
  seriesId: string;
  userId: string;
  role: string;
  rev: number;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface BooksTable extends SyncedColumns {
  seriesId: string;
  title: string;
  description: string;
  position: number;
  status: string;
  wordCount: number;
}

export interface ChaptersTable extends SyncedColumns {
  seriesId: string;
  bookId: string;
  title: string;
  content: string;
  position: number;
  wordCount: number;
  status: string;
}

export interface CharactersTable extends SyncedColumns {
  seriesId: string;
  name: string;
  role: string;
  age: string;
  occupation: string;
  status: string;
  description: string;
  appearance: string;
  personality: string;
  goals: string;
  backstory: string;
  bookAppearances: string;
  isProtagonist: number;
  avatar: string | null;
  avatarUrl: string | null;
}

export interface CharacterRelationshipsTable extends SyncedColumns {
  seriesId: string;
  sourceCharacterId: string;
  targetCharacterId: string;
  relationshipType: string;
  description: string;
}

export interface LocationsTable extends SyncedColumns {
  seriesId: string;
  name: string;
  locationType: string;
  description: string;
  importance: string;
  bookAppearances: string;
  image: string | null;
}

export interface TimelineEventsTable extends SyncedColumns {
  seriesId: string;
  title: string;
  description: string;
  eventType: string;
  date: string;
  bookId: string | null;
  chapterId: string | null;
  characterIds: string;
  locationId: string | null;
  importance: string;
  color: string;
  position: number;
  isPlotPoint: number;
}

export interface ChapterConflictsTable extends SyncedColumns {
  seriesId: string;
  chapterId: string;
  baseRev: number;
  title: string;
  content: string;
  authorId: string;
  reason: string;
}

/**
 * One snapshot per write of a row (DESIGN.md §3): merge bases and the chapter history. Never changed
 * once its write has committed, nor deleted while an idempotency record refers to it.
 */
export interface RevisionsTable {
  entity: string;
  entityId: string;
  rev: number;
  seriesId: string;
  userId: string | null;
  snapshot: string;
  createdAt: string;
}

export interface IdempotencyKeysTable {
  userId: string;
  key: string;
  requestHash: string;
  statusCode: number;
  /** The answer's JSON; with a snapshot reference, only what follows the snapshot's text minus its last character. */
  response: string;
  createdAt: string;
  /** The revision (entity, entityId, rev) whose snapshot begins the answer, or null (migration 0002). */
  snapshotEntity: string | null;
  snapshotEntityId: string | null;
  snapshotRev: number | null;
}

/** A backup snapshot kept on the server; its zip is DATA_DIR/backups/<userId>/<id>.zip. */
export interface BackupSnapshotsTable {
  id: string;
  userId: string;
  createdAt: string;
  /** 'weekly' | 'daily' | 'realtime' (the schedule) or 'manual' (Back up now). */
  reason: string;
  sizeBytes: number;
  /** The global seq when it was taken: writes after it are changes since. */
  seq: number;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  loginThrottle: LoginThrottleTable;
  syncState: SyncStateTable;
  series: SeriesTable;
  seriesMembers: SeriesMembersTable;
  books: BooksTable;
  chapters: ChaptersTable;
  characters: CharactersTable;
  characterRelationships: CharacterRelationshipsTable;
  locations: LocationsTable;
  timelineEvents: TimelineEventsTable;
  chapterConflicts: ChapterConflictsTable;
  revisions: RevisionsTable;
  idempotencyKeys: IdempotencyKeysTable;
  backupSnapshots: BackupSnapshotsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
// Generated is re-exported for later tables that use database defaults.
export type { Generated };

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
  /** The user record syncs as the user-scoped kind `users` (migration 0004): seq of its last write. */
  rev: number;
  /** Its own id: every user-scoped table names the owner in user_id. Null only before migration 0004 filled it. */
  userId: string | null;
  deletedAt: string | null;
  /** IANA zone, set from the author's browser when empty. */
  timeZone: string | null;
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
  /** JSON array of era keys (migration 0023). */
  eraOrder: Generated<string>;
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

export interface CollaborationInvitesTable {
  id: string;
  seriesId: string;
  inviterId: string;
  inviteeEmail: string | null;
  inviteeEmailKey: string | null;
  /** sha256 of a link invite's token; null for an e-mail invite. */
  tokenHash: string | null;
  role: string;
  message: string | null;
  status: string;
  expiresAt: string;
  answeredBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CollaborativeSeriesTable {
  seriesId: string;
  isPublic: number;
  createdAt: string;
}

export interface SeriesActivityTable {
  id: string;
  seriesId: string;
  userId: string;
  action: string;
  /** JSON object of strings. */
  detail: string;
  seq: number;
  createdAt: string;
}

export interface BooksTable extends SyncedColumns {
  seriesId: string;
  title: string;
  description: string;
  position: number;
  status: string;
  wordCount: number;
  /** In the series' Trash since (migration 0015, docs/decisions/0014-trash-and-restructure.md); null: not. */
  trashedAt: Generated<string | null>;
  /** The book's goal (migration 0018, docs/decisions/0018-pace-predictions.md); JSON arrays as text. */
  targetWords: Generated<number | null>;
  deadline: Generated<string | null>;
  writingDays: Generated<string>;
  daysOff: Generated<string>;
}

export interface ChaptersTable extends SyncedColumns {
  seriesId: string;
  bookId: string;
  title: string;
  content: string;
  position: number;
  wordCount: number;
  status: string;
  /** Empty by default (migration 0013): every chapter made before them, and every insert that names neither. */
  synopsis: Generated<string>;
  notes: Generated<string>;
  /** In the series' Trash since (migration 0015); null: not. */
  trashedAt: Generated<string | null>;
  /** 0017; 0 by default. */
  flashback: Generated<number>;
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
  /** JSON array of strings (0011; '[]' by default). */
  aliases: Generated<string>;
  alwaysInclude: Generated<number>;
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
  /** 0012; 0 by default. */
  alwaysInclude: Generated<number>;
  /** 0020: the place it is inside, null at the top level (docs/decisions/0021-places-inside-places.md). */
  parentId: string | null;
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
  /** 0017; 0 by default. */
  flashback: Generated<number>;
}

/** 0017 (docs/decisions/0017-canon-changes.md). */
export interface CanonChangesTable extends SyncedColumns {
  seriesId: string;
  entityKind: string;
  entityId: string;
  field: string;
  value: string;
  locationId: string | null;
  bookId: string | null;
  chapterId: string | null;
  timelineEventId: string | null;
  date: string;
  note: string;
}

/** 0019 (docs/decisions/0020-world-entries.md); lists are JSON text. */
export interface WorldEntriesTable extends SyncedColumns {
  seriesId: string;
  category: string;
  name: string;
  summary: string;
  description: string;
  tags: string;
  bookAppearances: string;
  language: string;
  beliefs: string;
  customs: string;
  source: string;
  costs: string;
  limitations: string;
  habitat: string;
  danger: string;
  era: string;
  goals: string;
  leaderId: string | null;
  allyIds: string;
  enemyIds: string;
  characterIds: string;
  locationIds: string;
  entryIds: string;
}

export interface ChapterConflictsTable extends SyncedColumns {
  seriesId: string;
  chapterId: string;
  baseRev: number;
  title: string;
  content: string;
  authorId: string;
  reason: string;
  device: string | null;
}

/** A companion suggestion (migration 0006). */
export interface AiSuggestionsTable extends SyncedColumns {
  seriesId: string;
  bookId: string | null;
  type: string;
  content: string;
  engine: string;
  /** JSON array of ids. */
  entityIds: string;
  authorId: string;
}

/** How many allowance-counted companion requests an author made on a local day (migration 0006). */
export interface AiUsageTable {
  userId: string;
  /** YYYY-MM-DD in the author's time zone. */
  day: string;
  used: number;
}

/**
 * One snapshot per write of a row (docs/sync-protocol.md#the-server-transaction): merge bases and
 * the chapter history. Never changed once its write has committed, nor deleted while an idempotency
 * record refers to it.
 */
export interface RevisionsTable {
  entity: string;
  entityId: string;
  rev: number;
  seriesId: string;
  userId: string | null;
  snapshot: string;
  createdAt: string;
  /** 1 when the revision is listed in the history (a chapter's text or title changed), 0 when it only keeps a merge base. */
  inHistory: Generated<number>;
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

// Billing (migration 0007)
export interface BillingCustomersTable {
  userId: string;
  stripeCustomerId: string;
  createdAt: string;
}

export interface BillingSubscriptionsTable {
  /** Stripe's subscription id. */
  id: string;
  userId: string;
  plan: string;
  interval: string;
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: number;
  paymentFailed: number;
  updatedAt: string;
}

export interface BillingPlansTable {
  userId: string;
  /** The plan billing last set. */
  plan: string;
}

export interface BillingEventsTable {
  eventId: string;
  type: string;
  receivedAt: string;
}

/** A user-scoped synced row (no series). */
export interface EntitlementsTable extends SyncedColumns {
  userId: string;
  kind: string;
  expiresAt: string | null;
  giftCode: string | null;
  giftRedeemedAt: string | null;
  giftRedeemedBy: string | null;
  source: string | null;
}

export interface SupportRequestsTable {
  id: string;
  userId: string;
  subject: string;
  message: string;
  createdAt: string;
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

/**
 * The archive (zip bytes) of a backup snapshot, kept in the database so every instance can serve it
 * (docs/decisions/0011-backup-archives-in-the-database.md). Snapshots taken before it have no row here
 * and are read from DATA_DIR/backups (backup/snapshots.ts).
 */
export interface BackupArchivesTable {
  snapshotId: string;
  archive: Uint8Array;
}

/** A picture's bytes, once per content hash (docs/decisions/0022-pictures-on-the-server.md). */
export interface MediaContentTable {
  /** Lowercase hex SHA-256 of `data`. */
  sha256: string;
  /** The sniffed type: image/jpeg, image/png, image/webp or image/gif. */
  type: string;
  bytes: number;
  width: number;
  height: number;
  data: Uint8Array;
  createdAt: string;
}

/** A series uses a picture: what the allowance counts and what a series' members may read. */
export interface SeriesMediaTable {
  seriesId: string;
  sha256: string;
  uploadedBy: string;
  /** Its last upload: a picture no field names is kept a day after it (media/sweep.ts). */
  touchedAt: string;
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
  canonChanges: CanonChangesTable;
  worldEntries: WorldEntriesTable;
  chapterConflicts: ChapterConflictsTable;
  revisions: RevisionsTable;
  idempotencyKeys: IdempotencyKeysTable;
  writingEvents: WritingEventsTable;
  writingStats: WritingStatsTable;
  userAchievements: UserAchievementsTable;
  writingSettings: WritingSettingsTable;
  aiSuggestions: AiSuggestionsTable;
  aiUsage: AiUsageTable;
  billingCustomers: BillingCustomersTable;
  billingSubscriptions: BillingSubscriptionsTable;
  billingPlans: BillingPlansTable;
  billingEvents: BillingEventsTable;
  entitlements: EntitlementsTable;
  supportRequests: SupportRequestsTable;
  collaborationInvites: CollaborationInvitesTable;
  collaborativeSeries: CollaborativeSeriesTable;
  seriesActivity: SeriesActivityTable;
  backupSnapshots: BackupSnapshotsTable;
  backupArchives: BackupArchivesTable;
  mediaContent: MediaContentTable;
  seriesMedia: SeriesMediaTable;
}

/** One chapter save's words, logged once per (author, event id): replays never count twice. */
export interface WritingEventsTable {
  userId: string;
  id: string;
  chapterId: string;
  seriesId: string;
  kind: string;
  /** The attributed (clamped) device time of the edit. */
  editedAt: string;
  recordedAt: string;
  day: string;
  wordsAdded: number;
  wordsRemoved: number;
  pasted: number;
  rev: number;
}

export interface WritingStatsTable extends SyncedColumns {
  userId: string;
  day: string;
  wordsWritten: number;
  wordsRemoved: number;
  wordsPasted: number;
  edits: number;
}

export interface UserAchievementsTable extends SyncedColumns {
  userId: string;
  achievementId: string;
  earnedAt: string;
}

export interface WritingSettingsTable extends SyncedColumns {
  userId: string;
  dayEndHour: number;
  /** JSON array of weekdays. */
  restDays: string;
  freezesPerMonth: number;
  dailyGoal: number | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
// Generated is re-exported for later tables that use database defaults.
export type { Generated };

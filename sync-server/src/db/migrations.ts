/**
 * Schema migrations, written with Kysely's schema builder so they stay portable to PostgreSQL
 * (DESIGN.md §4). Add a migration; never edit one that has shipped.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

/** Columns every synced story row has. */
function synced<T extends { addColumn: (...args: any[]) => T }>(table: T): T {
  return table
    .addColumn('id', 'text', (c: any) => c.primaryKey())
    .addColumn('rev', 'integer', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .addColumn('deleted_at', 'text');
}

const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('username_key', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('email_key', 'text')
        .addColumn('plan', 'text', (c) => c.notNull().defaultTo('apprentice'))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_email_key').on('users').column('email_key').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('login_throttle')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sync_state')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('sync_state').values({ name: 'seq', value: 0 }).execute();

      await synced(db.schema.createTable('series'))
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('total_books', 'integer', (c) => c.notNull())
        .addColumn('current_book', 'integer', (c) => c.notNull())
        .addColumn('cover_image', 'text')
        .execute();
      await db.schema.createIndex('series_owner').on('series').columns(['owner_id', 'rev']).execute();

      await db.schema
        .createTable('series_members')
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .addPrimaryKeyConstraint('series_members_pk', ['series_id', 'user_id'])
        .execute();
      await db.schema.createIndex('series_members_user').on('series_members').columns(['user_id', 'rev']).execute();

      await synced(db.schema.createTable('books'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('word_count', 'integer', (c) => c.notNull())
        .execute();

      await synced(db.schema.createTable('chapters'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('book_id', 'text', (c) => c.notNull().references('books.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('word_count', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chapters_book').on('chapters').columns(['book_id', 'position']).execute();

      await synced(db.schema.createTable('characters'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('age', 'text', (c) => c.notNull())
        .addColumn('occupation', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('appearance', 'text', (c) => c.notNull())
        .addColumn('personality', 'text', (c) => c.notNull())
        .addColumn('goals', 'text', (c) => c.notNull())
        .addColumn('backstory', 'text', (c) => c.notNull())
        .addColumn('book_appearances', 'text', (c) => c.notNull())
        .addColumn('is_protagonist', 'integer', (c) => c.notNull())
        .addColumn('avatar', 'text')
        .addColumn('avatar_url', 'text')
        .execute();

      await synced(db.schema.createTable('character_relationships'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('source_character_id', 'text', (c) => c.notNull().references('characters.id'))
        .addColumn('target_character_id', 'text', (c) => c.notNull().references('characters.id'))
        .addColumn('relationship_type', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .execute();

      await synced(db.schema.createTable('locations'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('location_type', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('importance', 'text', (c) => c.notNull())
        .addColumn('book_appearances', 'text', (c) => c.notNull())
        .addColumn('image', 'text')
        .execute();

      await synced(db.schema.createTable('timeline_events'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('book_id', 'text')
        .addColumn('chapter_id', 'text')
        .addColumn('character_ids', 'text', (c) => c.notNull())
        .addColumn('location_id', 'text')
        .addColumn('importance', 'text', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('is_plot_point', 'integer', (c) => c.notNull())
        .execute();

      await synced(db.schema.createTable('chapter_conflicts'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('chapter_id', 'text', (c) => c.notNull().references('chapters.id'))
        .addColumn('base_rev', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chapter_conflicts_chapter').on('chapter_conflicts').column('chapter_id').execute();

      // Every story table is read by series (REST lists) and by series + rev (changes feed).
      for (const table of ['books', 'chapters', 'characters', 'character_relationships', 'locations', 'timeline_events', 'chapter_conflicts']) {
        await db.schema.createIndex(`${table}_series_rev`).on(table).columns(['series_id', 'rev']).execute();
      }

      await db.schema
        .createTable('revisions')
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addColumn('series_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('snapshot', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('revisions_pk', ['entity', 'entity_id', 'rev'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
      void sql;
    },
  },

  /**
   * An idempotency record may answer by reference: when the answer's JSON is a revision snapshot
   * the same write stored (a saved row, maybe with keys appended), the record names that snapshot
   * and `response` keeps only the text after the snapshot's last character (its closing brace), so
   * a save's text is not written a third time. Records without a reference keep the whole answer.
   */
  '0002_idempotency_snapshot_reference': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('idempotency_keys').addColumn('snapshot_entity', 'text').execute();
      await db.schema.alterTable('idempotency_keys').addColumn('snapshot_entity_id', 'text').execute();
      await db.schema.alterTable('idempotency_keys').addColumn('snapshot_rev', 'integer').execute();
    },
  },

  // Front door (issue 16): look-alike usernames (UTS #39 skeletons; not unique, since two look-alikes may already exist) and the browser of each session.
  '0003_front_door_skeletons_and_session_agents': {
    async up(db: Kysely<any>) {
      // Existing accounts get their skeleton from the auth domain at start-up (backfillUsernameSkeletons):
      // the storage layer does not know the rule.
      await db.schema.alterTable('users').addColumn('username_skeleton', 'text').execute();
      await db.schema.createIndex('users_username_skeleton').on('users').column('username_skeleton').execute();
      await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
    },
  },

  // Backups (issue 14): the scheduled and on-demand snapshots kept for each author under DATA_DIR/backups.
  '0009_backups': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('backup_snapshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('backup_snapshots_user_created').on('backup_snapshots').columns(['user_id', 'created_at']).execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

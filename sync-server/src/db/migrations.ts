/**
 * Schema migrations, written with Kysely's schema builder so they stay portable to PostgreSQL
 * (docs/server.md#storage). Add a migration; never edit one that has shipped.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';

/** A column of bytes: `blob` on SQLite, `bytea` on PostgreSQL (the one type name the two do not share). */
function bytesType(db: Kysely<any>): 'blob' | 'bytea' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
}

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

  // Front door (account rules, the sessions list): look-alike usernames (UTS #39 skeletons; not unique, since two look-alikes may already exist) and the browser of each session.
  '0003_front_door_skeletons_and_session_agents': {
    async up(db: Kysely<any>) {
      // Existing accounts get their skeleton from the auth domain at start-up (backfillUsernameSkeletons):
      // the storage layer does not know the rule.
      await db.schema.alterTable('users').addColumn('username_skeleton', 'text').execute();
      await db.schema.createIndex('users_username_skeleton').on('users').column('username_skeleton').execute();
      await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
    },
  },

  /**
   * User-scoped synced rows (packages/sync-client README): the author's own record syncs like an
   * entity, so `users` gets the synced columns (rev, deleted_at) and `user_id` (its own id, as every
   * user-scoped table names its owner), plus the author's IANA time zone. Existing accounts take one
   * new seq, so every device already synced receives its author's record on the next pull.
   */
  '0004_user_scope': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('rev', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('users').addColumn('user_id', 'text').execute();
      await db.schema.alterTable('users').addColumn('deleted_at', 'text').execute();
      await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
      const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
      if (anyUser) {
        await db.updateTable('sync_state').set({ value: sql`value + 1` }).where('name', '=', 'seq').execute();
        const seq = await db.selectFrom('sync_state').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow();
        await db.updateTable('users').set((eb) => ({ user_id: eb.ref('id'), rev: Number(seq.value) })).execute();
      }
      await db.schema.createIndex('users_user_rev').on('users').columns(['user_id', 'rev']).execute();
      // The foreign-commit watch (sync/foreign-commits.ts) finds records changed by another process by rev.
      await db.schema.createIndex('users_rev').on('users').column('rev').execute();
    },
  },

  // Writing progress: each edit logged once, daily figures per author and local day, earned
  // achievements and the author's writing settings (the last three are user-scoped synced rows).
  '0005_writing_progress': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('writing_events')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('chapter_id', 'text', (c) => c.notNull())
        .addColumn('series_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('edited_at', 'text', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('words_added', 'integer', (c) => c.notNull())
        .addColumn('words_removed', 'integer', (c) => c.notNull())
        .addColumn('pasted', 'integer', (c) => c.notNull())
        .addColumn('rev', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('writing_events_pk', ['user_id', 'id'])
        .execute();

      await synced(db.schema.createTable('writing_stats'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('words_written', 'integer', (c) => c.notNull())
        .addColumn('words_removed', 'integer', (c) => c.notNull())
        .addColumn('words_pasted', 'integer', (c) => c.notNull())
        .addColumn('edits', 'integer', (c) => c.notNull())
        .addUniqueConstraint('writing_stats_user_day', ['user_id', 'day'])
        .execute();
      await db.schema.createIndex('writing_stats_user_rev').on('writing_stats').columns(['user_id', 'rev']).execute();

      await synced(db.schema.createTable('user_achievements'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('achievement_id', 'text', (c) => c.notNull())
        .addColumn('earned_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('user_achievements_user_achievement', ['user_id', 'achievement_id'])
        .execute();
      await db.schema.createIndex('user_achievements_user_rev').on('user_achievements').columns(['user_id', 'rev']).execute();

      await synced(db.schema.createTable('writing_settings'))
        .addColumn('user_id', 'text', (c) => c.notNull().unique())
        .addColumn('day_end_hour', 'integer', (c) => c.notNull())
        .addColumn('rest_days', 'text', (c) => c.notNull())
        .addColumn('freezes_per_month', 'integer', (c) => c.notNull())
        .addColumn('daily_goal', 'integer')
        .execute();
      await db.schema.createIndex('writing_settings_user_rev').on('writing_settings').columns(['user_id', 'rev']).execute();
    },
  },

  // The writing companion: stored suggestions (a synced, series-scoped kind) and the
  // daily allowance counter per author and local day.
  '0006_companion': {
    async up(db: Kysely<any>) {
      await synced(db.schema.createTable('ai_suggestions'))
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('book_id', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('entity_ids', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ai_suggestions_series_rev').on('ai_suggestions').columns(['series_id', 'rev']).execute();
      await db.schema
        .createTable('ai_usage')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('used', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('ai_usage_pk', ['user_id', 'day'])
        .execute();
    },
  },

  // Billing: Stripe customers and subscriptions as Stripe last told us, the webhook
  // events already applied, entitlements (a user-scoped synced kind) and premium support requests.
  '0007_billing': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('billing_customers')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('stripe_customer_id', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('billing_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('interval', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('current_period_end', 'text')
        .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('payment_failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('billing_subscriptions_user').on('billing_subscriptions').column('user_id').execute();
      // The plan billing last gave each author: a plan that differs from it was set by an operator
      // (pnpm cli user:plan) and is kept as the floor billing never lowers.
      await db.schema
        .createTable('billing_plans')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('plan', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('billing_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
      await synced(db.schema.createTable('entitlements'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('gift_code', 'text', (c) => c.unique())
        .addColumn('gift_redeemed_at', 'text')
        .addColumn('gift_redeemed_by', 'text')
        // What granted it: a PaymentIntent id or `gift:<code>`; one grant per source (set in the
        // write that inserts the row, right after the shared insert of its wire fields).
        .addColumn('source', 'text', (c) => c.unique())
        .execute();
      await db.schema.createIndex('entitlements_user_rev').on('entitlements').columns(['user_id', 'rev']).execute();
      await db.schema
        .createTable('support_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('support_requests_created').on('support_requests').column('created_at').execute();
    },
  },

  // Collaboration: invites (by e-mail or a single-use link), which series were made as
  // collaborative (isPublic), and the activity record of each series.
  '0008_collaboration': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('collaboration_invites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('inviter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('invitee_email', 'text')
        .addColumn('invitee_email_key', 'text')
        .addColumn('token_hash', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('answered_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('collaboration_invites_email').on('collaboration_invites').columns(['invitee_email_key', 'status']).execute();
      await db.schema.createIndex('collaboration_invites_series').on('collaboration_invites').columns(['series_id', 'status']).execute();
      await db.schema.createIndex('collaboration_invites_token').on('collaboration_invites').column('token_hash').execute();

      await db.schema
        .createTable('collaborative_series')
        .addColumn('series_id', 'text', (c) => c.primaryKey().references('series.id'))
        .addColumn('is_public', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('series_activity')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('series_activity_series').on('series_activity').columns(['series_id', 'seq']).execute();
    },
  },

  // Revision history: a write that changes neither a chapter's text nor its title (a
  // reorder, a status change) still keeps its snapshot (merge base, idempotent answers) but is left
  // out of the revision history. Revisions written before stay listed.
  '0010_ux': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('revisions').addColumn('in_history', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    },
  },

  // The companion's series bible: characters' other names, matched in the text at hand
  // like the name, and the author's "always include" mark.
  '0011_character_aliases': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('characters').addColumn('aliases', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      await db.schema.alterTable('characters').addColumn('always_include', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },

  // Backups: the scheduled and on-demand snapshots kept for each author under DATA_DIR/backups.
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
  // The companion's series bible: the author's "always include" mark on a location. Main
  // locations stay in the bible without it, so 0 for every existing row changes nothing.
  '0012_location_always_include': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('locations').addColumn('always_include', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  // A chapter's synopsis and notes (docs/architecture.md#chapters): marked text beside the
  // chapter's, never counted as writing; empty for every existing chapter.
  '0013_chapter_synopsis_notes': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('chapters').addColumn('synopsis', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('chapters').addColumn('notes', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
  },
};

// Backup archives in the database, so any instance serves any author's snapshot
// (docs/decisions/0011-backup-archives-in-the-database.md). Deleted with their snapshot.
migrations['0014_backup_archives'] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('backup_archives')
      .addColumn('snapshot_id', 'text', (c) => c.primaryKey().references('backup_snapshots.id').onDelete('cascade'))
      .addColumn('archive', bytesType(db), (c) => c.notNull())
      .execute();
  },
};

// The series' Trash (docs/decisions/0014-trash-and-restructure.md): a trashed book or chapter is a
// live row with `trashed_at` set, purged for good 30 days later. Null (not trashed) for every
// existing row; the purge job finds the due rows by the index.
migrations['0015_trash'] = {
  async up(db: Kysely<any>) {
    for (const table of ['books', 'chapters']) {
      await db.schema.alterTable(table).addColumn('trashed_at', 'text').execute();
      await db.schema.createIndex(`${table}_trashed_at`).on(table).column('trashed_at').execute();
    }
  },
};

// Look-alike usernames also by Latin shapes (I/l, vv/w, cl/d): every stored skeleton is made again
// by the auth domain at start-up (backfillUsernameSkeletons fills the emptied column).
migrations['0016_username_skeletons_latin'] = {
  async up(db: Kysely<any>) {
    await db.updateTable('users').set({ username_skeleton: null }).execute();
  },
};

// Canon over time (docs/decisions/0017-canon-changes.md): changes of a character's, a location's or
// a relationship's field at a story point, and the flashback mark on chapters and timeline events
// (false for every existing row). The feed reads changes by (series_id, rev); the delete cascade
// finds an entity's changes by entity_id.
migrations['0017_canon_changes'] = {
  async up(db: Kysely<any>) {
    await synced(db.schema.createTable('canon_changes'))
      .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
      .addColumn('entity_kind', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('field', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('location_id', 'text')
      .addColumn('book_id', 'text')
      .addColumn('chapter_id', 'text')
      .addColumn('timeline_event_id', 'text')
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('canon_changes_series_rev').on('canon_changes').columns(['series_id', 'rev']).execute();
    await db.schema.createIndex('canon_changes_entity').on('canon_changes').column('entity_id').execute();
    for (const table of ['chapters', 'timeline_events']) {
      await db.schema.alterTable(table).addColumn('flashback', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    }
  },
};

// A book's goal (docs/decisions/0018-pace-predictions.md): a target, a deadline, writing weekdays
// and days off. No goal for every existing book; empty lists read as "every day" and "none".
migrations['0018_book_goals'] = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('books').addColumn('target_words', 'integer').execute();
    await db.schema.alterTable('books').addColumn('deadline', 'text').execute();
    await db.schema.alterTable('books').addColumn('writing_days', 'text', (c) => c.notNull().defaultTo('[]')).execute();
    await db.schema.alterTable('books').addColumn('days_off', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  },
};

// World entries (docs/decisions/0020-world-entries.md): cultures, magic systems, species,
// technologies and factions, one table with a category. Lists (tags, books, links) are JSON text as
// elsewhere; the feed reads entries by (series_id, rev).
migrations['0019_world_entries'] = {
  async up(db: Kysely<any>) {
    let table = synced(db.schema.createTable('world_entries'))
      .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('danger', 'text', (c) => c.notNull().defaultTo('unknown'))
      .addColumn('leader_id', 'text');
    for (const column of ['summary', 'description', 'language', 'beliefs', 'customs', 'source', 'costs', 'limitations', 'habitat', 'era', 'goals']) {
      table = table.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
    }
    for (const column of ['tags', 'book_appearances', 'ally_ids', 'enemy_ids', 'character_ids', 'location_ids', 'entry_ids']) {
      table = table.addColumn(column, 'text', (c) => c.notNull().defaultTo('[]'));
    }
    await table.execute();
    await db.schema.createIndex('world_entries_series_rev').on('world_entries').columns(['series_id', 'rev']).execute();
  },
};

// Pictures kept per series (docs/decisions/0022-pictures-on-the-server.md): the bytes once per
// content hash (`media_content`, blob/bytea as backup archives are), and which series use each
// (`series_media`): the allowance counts an owner's distinct pictures; bytes go when no series uses them.
migrations['0021_media'] = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('media_content')
      .addColumn('sha256', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('data', bytesType(db), (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('series_media')
      .addColumn('series_id', 'text', (c) => c.notNull().references('series.id'))
      .addColumn('sha256', 'text', (c) => c.notNull().references('media_content.sha256'))
      .addColumn('uploaded_by', 'text', (c) => c.notNull())
      .addColumn('touched_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('series_media_pk', ['series_id', 'sha256'])
      .execute();
    await db.schema.createIndex('series_media_sha256').on('series_media').column('sha256').execute();
    await db.schema.createIndex('series_media_touched_at').on('series_media').column('touched_at').execute();
  },
};

// The device a conflicting save came from, shown on the conflict banner (describeDevice's label).
migrations['0022_conflict_device'] = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('chapter_conflicts').addColumn('device', 'text').execute();
  },
};

// The author's order of the timeline's eras (a JSON array of era keys; empty: the story's order).
migrations['0023_series_era_order'] = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('series').addColumn('era_order', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  },
};

// Places inside places (docs/decisions/0021-places-inside-places.md): the place a location is
// inside, null (the top level) for every existing one. No index: the tree is built from the
// series' locations, and a move walks up by id.
migrations['0020_location_parent'] = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('locations').addColumn('parent_id', 'text').execute();
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Every migration this version knows, in the order they run. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations).sort();

/** A database that has run migrations this version does not know was made by a newer version. */
export class NewerDatabaseError extends Error {
  constructor(unknown: readonly string[]) {
    super(
      `The database was created by a newer version of Chronicler (it has migration ${unknown.join(', ')}, which this version does not know). ` +
        'Run the newer version, or restore a backup made by this one.',
    );
    this.name = 'NewerDatabaseError';
  }
}

/** The migrations the database has run, or null when it has none yet (a new database). */
async function executedMigrations(db: Kysely<any>): Promise<string[] | null> {
  try {
    const rows = await db.selectFrom('kysely_migration').select('name').execute();
    return rows.map((r) => String(r.name));
  } catch {
    return null; // no migration table yet
  }
}

function refuseNewerDatabase(ran: readonly string[]): void {
  const known = new Set(MIGRATION_NAMES);
  const unknown = ran.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new NewerDatabaseError([...unknown].sort());
}

async function runMigrations(db: Kysely<any>): Promise<void> {
  const ran = await executedMigrations(db);
  if (ran) refuseNewerDatabase(ran);
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/**
 * Brings the schema up to date; refuses a database made by a newer version. On PostgreSQL, where
 * several instances may start at once, everything (the newer-version check, creating Kysely's
 * migration tables, each migration in its own transaction) runs on ONE connection holding an
 * advisory lock: the first instance migrates, the others wait and then find nothing to do
 * (docs/server.md#postgresql).
 */
export async function migrateToLatest(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'sqlite') return runMigrations(db);
  // Up to date already (every instance start but the first after an upgrade): one read, no lock.
  const ran = await executedMigrations(db);
  if (ran && ran.length === MIGRATION_NAMES.length) {
    refuseNewerDatabase(ran);
    return;
  }
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('chronicler_migrations'))`.execute(connection);
    try {
      await runMigrations(connection);
    } finally {
      await sql`select pg_advisory_unlock(hashtext('chronicler_migrations'))`.execute(connection);
    }
  });
}

/**
 * Turning a test database back into what an older server left, for the upgrade tests: later
 * migrations must go too (Kysely re-runs migrations only in order, after the last one recorded).
 * Every migration after 0003 has its undo here; `test/db/undo-migrations.test.ts` fails when one is missing.
 */
interface Sqlite {
  prepare(sql: string): { run(...args: unknown[]): unknown };
}

const dropTables = (sqlite: Sqlite, tables: readonly string[]) => {
  for (const table of tables) sqlite.prepare(`drop table ${table}`).run();
};

/** What each migration after 0003 added, taken away again. */
export const UNDO_MIGRATION: Record<string, (sqlite: Sqlite) => void> = {
  '0004_user_scope': (sqlite) => {
    for (const index of ['users_user_rev', 'users_rev']) sqlite.prepare(`drop index ${index}`).run();
    for (const column of ['rev', 'user_id', 'deleted_at', 'time_zone']) sqlite.prepare(`alter table users drop column ${column}`).run();
  },
  '0005_writing_progress': (sqlite) => dropTables(sqlite, ['writing_events', 'writing_stats', 'user_achievements', 'writing_settings']),
  '0006_companion': (sqlite) => dropTables(sqlite, ['ai_suggestions', 'ai_usage']),
  '0007_billing': (sqlite) =>
    dropTables(sqlite, ['billing_customers', 'billing_subscriptions', 'billing_plans', 'billing_events', 'entitlements', 'support_requests']),
  '0008_collaboration': (sqlite) => dropTables(sqlite, ['collaboration_invites', 'collaborative_series', 'series_activity']),
  '0009_backups': (sqlite) => dropTables(sqlite, ['backup_snapshots']),
  '0010_ux': (sqlite) => sqlite.prepare('alter table revisions drop column in_history').run(),
  '0011_character_aliases': (sqlite) => {
    for (const column of ['aliases', 'always_include']) sqlite.prepare(`alter table characters drop column ${column}`).run();
  },
  '0012_location_always_include': (sqlite) => sqlite.prepare('alter table locations drop column always_include').run(),
  '0013_chapter_synopsis_notes': (sqlite) => {
    for (const column of ['synopsis', 'notes']) sqlite.prepare(`alter table chapters drop column ${column}`).run();
  },
  '0014_backup_archives': (sqlite) => dropTables(sqlite, ['backup_archives']),
  '0015_trash': (sqlite) => {
    for (const table of ['books', 'chapters']) {
      sqlite.prepare(`drop index ${table}_trashed_at`).run();
      sqlite.prepare(`alter table ${table} drop column trashed_at`).run();
    }
  },
  // Data only: the skeletons it emptied are made again at start-up.
  '0016_username_skeletons_latin': () => {},
  '0017_canon_changes': (sqlite) => {
    dropTables(sqlite, ['canon_changes']);
    for (const table of ['chapters', 'timeline_events']) sqlite.prepare(`alter table ${table} drop column flashback`).run();
  },
  '0018_book_goals': (sqlite) => {
    for (const column of ['target_words', 'deadline', 'writing_days', 'days_off']) sqlite.prepare(`alter table books drop column ${column}`).run();
  },
  '0019_world_entries': (sqlite) => dropTables(sqlite, ['world_entries']),
  '0021_media': (sqlite) => dropTables(sqlite, ['series_media', 'media_content']),
  '0022_conflict_device': (sqlite) => {
    sqlite.prepare('alter table chapter_conflicts drop column device').run();
  },
  '0023_series_era_order': (sqlite) => {
    sqlite.prepare('alter table series drop column era_order').run();
  },
  '0020_location_parent': (sqlite) => sqlite.prepare('alter table locations drop column parent_id').run(),
};

/** Undoes every migration whose name starts at `first` (e.g. '0004') or later, newest first. */
export function undoMigrationsFrom(sqlite: Sqlite, first: string): void {
  for (const name of Object.keys(UNDO_MIGRATION).sort().reverse()) {
    if (name < first) continue;
    UNDO_MIGRATION[name]!(sqlite);
    sqlite.prepare('delete from kysely_migration where name = ?').run(name);
  }
}

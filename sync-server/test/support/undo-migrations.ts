/**
 * Turning a test database back into what an older server left, for the upgrade tests: later
 * migrations must go too (Kysely re-runs migrations only in order, after the last one recorded).
 */
interface Sqlite {
  prepare(sql: string): { run(...args: unknown[]): unknown };
}

/** Undoes 0004_user_scope (the user-scoped columns of `users`). */
export function undoUserScope(sqlite: Sqlite): void {
  sqlite.prepare("delete from kysely_migration where name like '0004_%'").run();
  for (const index of ['users_user_rev', 'users_rev']) sqlite.prepare(`drop index ${index}`).run();
  for (const column of ['rev', 'user_id', 'deleted_at', 'time_zone']) sqlite.prepare(`alter table users drop column ${column}`).run();
}

/** Undoes 0008_collaboration (invites, collaborative marks, activity). */
export function undoCollaboration(sqlite: Sqlite): void {
  sqlite.prepare("delete from kysely_migration where name = '0008_collaboration'").run();
  for (const table of ['collaboration_invites', 'collaborative_series', 'series_activity']) sqlite.prepare(`drop table ${table}`).run();
}

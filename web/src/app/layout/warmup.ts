/**
 * The heaviest module the signed-in app evaluates — Dexie with the local database's schema — asked
 * for on its own as the signed-in shell starts downloading (ProtectedRoute), so that the browser
 * runs it as a task of its own: evaluated with the rest of the shell, it made one long task right
 * after the first paint (issue 16, first load). zod is no longer on this path: it loads with the
 * first write (sync-client load-body-schemas.ts) or a form. Nothing uses this export.
 */
export { openChroniclerDb } from '@chronicler/sync-client';

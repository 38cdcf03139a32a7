/**
 * The heaviest modules the signed-in app evaluates — zod with the plan table, Dexie with the local
 * database's schema — asked for on their own as the signed-in shell starts downloading
 * (ProtectedRoute), so that the browser runs them as a task of their own: evaluated with the rest
 * of the shell, they made one task of ~80 ms (~330 ms on Lighthouse's phone) right after the first
 * paint (docs/web.md#first-load). Nothing uses these exports.
 */
export { planNameSchema } from '@chronicler/schema';
export { openChroniclerDb } from '@chronicler/sync-client';

/**
 * Everything only a signed-in author needs before the first screen: the local database and sync
 * engine (SyncProvider: Dexie and the engine) and the shell (sidebar, top bar, drawer). One lazy
 * chunk, loaded by ProtectedRoute and the route table once someone is signed in, so `/auth` and a
 * first visit never download it (the first-route budget, scripts/first-route-size.mjs).
 */
export { SyncProvider } from '@/app/SyncProvider';
export { AppLayout } from './AppLayout';

/**
 * Backups (docs/server.md#backups): download everything the author owns as one archive, restore an
 * archive into this account. GET /api/backup answers the zip; POST /api/backup/restore takes it
 * base64-encoded in JSON (the API accepts JSON bodies only) and answers what was restored. The
 * snapshots the server keeps (snapshots.ts) are listed, taken on demand, downloaded and restored
 * under /api/backups.
 *
 * A restore is many writes (restore.ts: slices, so it never holds the server), not one runMutation,
 * so it keeps no Idempotency-Key record: a resent restore is answered by doing it again, which
 * writes nothing already written (its rows are found under the same ids).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BACKUP_MESSAGES,
  BACKUP_SCHEDULES,
  type BackupListResponse,
  ERROR_CODES,
  MAX_BACKUP_BYTES,
  PLANS,
  restoreBackupBodySchema,
} from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { HttpError } from '../http/errors.ts';
import { readArchive } from './archive.ts';
import { decodeBase64 } from './base64.ts';
import { collectBackupSource } from './collect.ts';
import { buildArchiveOffThread } from './heavy-work.ts';
import type { WorkerPool } from '../workers/pool.ts';
import { restoreBackup } from './restore.ts';
import { SCHEDULE_TICK_MS, listSnapshots, readSnapshot, runScheduledBackups, takeSnapshot } from './snapshots.ts';
import { idParams, noBody } from '../routes/kit.ts';

/** The file name of a download: chronicler-backup-<username>-<yyyy-mm-dd>.zip (ASCII only). */
export function backupFileName(username: string, now: Date): string {
  const safe = username.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '') || 'author';
  return `chronicler-backup-${safe}-${now.toISOString().slice(0, 10)}.zip`;
}

function zipReply(reply: FastifyReply, bytes: Uint8Array, fileName: string): FastifyReply {
  return reply
    .type('application/zip')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** Runs the snapshot schedule while the server runs (main.ts; tests call runScheduledBackups with their own clock). */
export function startBackupSchedule(app: FastifyInstance): void {
  const { config, database } = app.deps;
  const deps = { db: database.db, dataDir: config.dataDir, workers: app.backupWorkers };
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    runScheduledBackups(deps, new Date(), (error) => app.log.error({ err: error }, 'scheduled backup failed'))
      .catch((error: unknown) => app.log.error({ err: error }, 'scheduled backups failed'))
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(tick, SCHEDULE_TICK_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Worker threads for archives (heavy-work.ts), made by app.ts and closed with the app. */
    backupWorkers: WorkerPool;
  }
}

export default async function backupPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const workers = app.backupWorkers;

  app.get('/api/backup', async (request, reply) => {
    const user = requireUser(request);
    const now = new Date();
    // Read here, built on a worker thread (heavy-work.ts): the event loop keeps serving the others.
    const archive = await buildArchiveOffThread(workers, await collectBackupSource(db, user.id), user, now);
    return zipReply(reply, archive, backupFileName(user.username, now));
  });

  app.post(
    '/api/backup/restore',
    // base64 of the largest archive, plus the JSON around it.
    { schema: { body: restoreBackupBodySchema }, bodyLimit: Math.ceil((MAX_BACKUP_BYTES * 4) / 3) + 1024 },
    async (request) => {
      const user = requireUser(request);
      const text = request.body.archive.replace(/\s+/g, '');
      const bytes = await decodeBase64(text);
      if (!bytes) throw new HttpError(422, ERROR_CODES.validation, BACKUP_MESSAGES.damaged, { archive: BACKUP_MESSAGES.damaged });
      if (bytes.length > MAX_BACKUP_BYTES) throw new HttpError(422, ERROR_CODES.validation, BACKUP_MESSAGES.tooLarge, { archive: BACKUP_MESSAGES.tooLarge });
      // Checked whole before the write begins: a damaged archive changes nothing.
      const data = await readArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return restoreBackup(app.deps, user.id, data);
    },
  );

  const snapshotDeps = { db, dataDir: app.deps.config.dataDir, workers };

  /** The snapshots the server keeps for the caller, newest first, with the plan's schedule. */
  app.get('/api/backups', async (request): Promise<BackupListResponse> => {
    const user = requireUser(request);
    const frequency = PLANS[user.plan].limits.backup;
    return { frequency, keep: BACKUP_SCHEDULES[frequency].keep, snapshots: await listSnapshots(db, user.id) };
  });

  /** Back up now: a snapshot on the server outside the schedule (it counts towards the retention). */
  app.post('/api/backups', { schema: { body: noBody } }, async (request, reply) => {
    const user = requireUser(request);
    return reply.status(201).send(await takeSnapshot(snapshotDeps, user, 'manual', new Date()));
  });

  app.get('/api/backups/:id', { schema: { params: idParams } }, async (request, reply) => {
    const user = requireUser(request);
    const { bytes, summary } = await readSnapshot(snapshotDeps, user.id, request.params.id);
    return zipReply(reply, bytes, backupFileName(user.username, new Date(summary.createdAt)));
  });

  app.post('/api/backups/:id/restore', { schema: { params: idParams, body: noBody } }, async (request) => {
    const user = requireUser(request);
    const { bytes } = await readSnapshot(snapshotDeps, user.id, request.params.id);
    return restoreBackup(app.deps, user.id, await readArchive(bytes));
  });
}

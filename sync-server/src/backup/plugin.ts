/**
 * Backups (issue 14): download everything the author owns as one archive, restore an archive into
 * this account. GET /api/backup answers the zip; POST /api/backup/restore takes it base64-encoded
 * in JSON (the API accepts JSON bodies only) and answers what was restored.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BACKUP_MESSAGES, ERROR_CODES, MAX_BACKUP_BYTES, restoreBackupBodySchema } from '@chronicler/schema';
import { requireUser } from '../auth/session.ts';
import { HttpError } from '../http/errors.ts';
import { runMutation } from '../sync/mutation.ts';
import { readArchive, writeArchive } from './archive.ts';
import { collectBackup } from './collect.ts';
import { restoreBackup } from './restore.ts';

/** The file name of a download: chronicler-backup-<username>-<yyyy-mm-dd>.zip (ASCII only). */
export function backupFileName(username: string, now: Date): string {
  const safe = username.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '') || 'author';
  return `chronicler-backup-${safe}-${now.toISOString().slice(0, 10)}.zip`;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export default async function backupPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/backup', async (request, reply) => {
    const user = requireUser(request);
    const now = new Date();
    const archive = writeArchive(await collectBackup(db, user.id), { username: user.username, displayName: user.displayName }, now);
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${backupFileName(user.username, now)}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
  });

  app.post(
    '/api/backup/restore',
    // base64 of the largest archive, plus the JSON around it.
    { schema: { body: restoreBackupBodySchema }, bodyLimit: Math.ceil((MAX_BACKUP_BYTES * 4) / 3) + 1024 },
    async (request, reply) => {
      const user = requireUser(request);
      const text = request.body.archive.replace(/\s+/g, '');
      if (!BASE64.test(text)) throw new HttpError(422, ERROR_CODES.validation, BACKUP_MESSAGES.damaged, { archive: BACKUP_MESSAGES.damaged });
      const bytes = Buffer.from(text, 'base64');
      if (bytes.length > MAX_BACKUP_BYTES) throw new HttpError(422, ERROR_CODES.validation, BACKUP_MESSAGES.tooLarge, { archive: BACKUP_MESSAGES.tooLarge });
      // Checked whole before the write begins: a damaged archive changes nothing.
      const data = readArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return runMutation(request, reply, user.id, async (ctx) => ({ status: 200, body: await restoreBackup(ctx, data) }));
    },
  );
}

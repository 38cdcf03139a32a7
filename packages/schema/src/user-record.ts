/**
 * The signed-in author's own record, the first user-scoped synced kind (`users`; entities.ts
 * USER_SCOPED_KINDS), and the settings stored on it (000 §5 account; DESIGN.md §4 writing
 * statistics count days in the author's IANA time zone).
 */
import { z } from 'zod';
import { syncedRowSchema } from './entities.ts';
import { planNameSchema } from './plans.ts';

const id = z.uuid({ error: 'Must be a valid id' });

/**
 * The signed-in author's own record as it syncs (a user-scoped kind, `users`): plan, time zone and
 * the rest of their settings reach every open app through the changes feed. `userId` is the
 * record's own id (every user-scoped row names its owner in `userId`).
 */
export const userRecordSchema = syncedRowSchema.extend({
  userId: id,
  username: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  plan: planNameSchema,
  /** IANA zone (e.g. `Europe/Paris`) the author's days are counted in; null until the app sets it. */
  timeZone: z.string().nullable(),
});
export type UserRecord = z.infer<typeof userRecordSchema>;

/** Whether the runtime's Intl knows `zone` as an IANA time zone (the same test on both sides). */
export function isValidTimeZone(zone: string): boolean {
  if (zone.trim() === '' || zone !== zone.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** PUT /api/user/settings: the author's own settings (more fields join as they are added). */
export const updateUserSettingsBodySchema = z.strictObject({
  timeZone: z
    .string()
    .max(100, { error: 'Unknown time zone' })
    .refine(isValidTimeZone, { error: 'Unknown time zone' })
    .nullable()
    .optional(),
});
export type UpdateUserSettingsBody = z.input<typeof updateUserSettingsBodySchema>;

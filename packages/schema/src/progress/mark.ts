/** The writing mark of a chapter save (no dependency on the entity schemas: entities.ts uses it). */
import { z } from 'zod';
import { EDIT_KINDS } from './counting.ts';

const id = z.uuid({ error: 'Must be a valid id' });

/**
 * How a chapter save says what it is, carried in the chapter update body. Absent: writing, edited
 * at its arrival. `eventId` makes the edit count once even when replayed without its request key.
 */
export const writingMarkSchema = z.strictObject({
  eventId: id.optional(),
  editedAt: z.iso.datetime({ offset: true, error: 'Must be an ISO date-time' }).optional(),
  kind: z.enum(EDIT_KINDS).default('writing'),
});
export type WritingMark = z.input<typeof writingMarkSchema>;

/**
 * Path and body shapes every route plugin shares.
 */
import { z } from 'zod';

/**
 * Ids in paths are looked up, never trusted: anything that is not a stored, accessible row is a
 * 404, so the param only bounds the length.
 */
export const idParams = z.strictObject({ id: z.string().min(1).max(100) });

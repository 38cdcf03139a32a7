/**
 * The route kit: what every domain's route plugin shares — the id param, the empty body, and the
 * signed-in write through the one write path (sync/mutation.ts runMutation: seq, idempotency, group
 * commit; docs/sync-protocol.md#the-server-transaction). One copy for every plugin (auth, story,
 * progress, collaboration, backup, billing, ai): it sits above sync/ and below the domains, so none
 * of them needs another domain's folder for it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../http/caller.ts';
import { type MutationContext, type MutationResult, runMutation } from '../sync/mutation.ts';

/**
 * Ids in paths are looked up, never trusted: anything that is not a stored, accessible row is a
 * 404, so the param only bounds the length.
 */
export const idParams = z.strictObject({ id: z.string().min(1).max(100) });

/** A POST or DELETE that takes no body; an empty object is tolerated (some clients always send one). */
export const noBody = z.strictObject({}).nullish();

/** Runs a write as the signed-in user (401 otherwise) through the one write path; sends the reply and returns it. */
export function write(
  request: FastifyRequest,
  reply: FastifyReply,
  handler: (ctx: MutationContext) => Promise<MutationResult>,
): Promise<FastifyReply> {
  return runMutation(request, reply, requireUser(request).id, handler);
}

/** A write's 200 answer with `body`. */
export const ok = (body: unknown): MutationResult => ({ status: 200, body });

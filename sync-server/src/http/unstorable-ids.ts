/**
 * A path parameter holding U+0000 names nothing: no id or key the server stores can contain it,
 * and PostgreSQL refuses it in text outright (SQLite would only find no row). Answered as the
 * unknown object it is, 404, the same on both storages (docs/server.md#postgresql).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from './errors.ts';

export function refuseUnstorableIds(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const params = request.params as Record<string, unknown> | undefined;
  if (params && Object.values(params).some((value) => typeof value === 'string' && value.includes('\u0000'))) return done(notFound());
  done();
}

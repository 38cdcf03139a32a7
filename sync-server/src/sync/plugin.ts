import type { FastifyInstance } from 'fastify';

export default async function syncPlugin(_app: FastifyInstance): Promise<void> {
  // filled in by the sync work
}

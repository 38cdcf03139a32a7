import type { FastifyInstance } from 'fastify';

export default async function authPlugin(_app: FastifyInstance): Promise<void> {
  // filled in by the auth work
}

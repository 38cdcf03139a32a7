import type { FastifyInstance } from 'fastify';

export default async function webPlugin(_app: FastifyInstance, _opts: { root: string }): Promise<void> {
  // serves the built PWA (filled in with the auth/config work)
}

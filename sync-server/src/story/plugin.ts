import type { FastifyInstance } from 'fastify';

export default async function storyPlugin(_app: FastifyInstance): Promise<void> {
  // filled in by the story work
}

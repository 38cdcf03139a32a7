/**
 * The baselines of bench/server-http.ts: Fastify with nothing but two routes — a JSON read, and a
 * save's HTTP alone (the same chapter body parsed, the same-sized row answered, no storage).
 */
import Fastify from 'fastify';
import { serveForBench } from '../lib/serve.ts';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
let rev = 0;
app.put('/chapters/:id', async (request) => {
  const { content } = request.body as { content: string };
  const { id } = request.params as { id: string };
  return { id, rev: ++rev, title: 'Chapter', content, updatedAt: new Date().toISOString(), mergeStatus: 'fast-forward' };
});
await serveForBench(app);

/** The baseline of bench/server-http.ts: Fastify with one JSON route and nothing else. */
import Fastify from 'fastify';
import { serveForBench } from '../lib/serve.ts';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await serveForBench(app);

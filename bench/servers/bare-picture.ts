/**
 * The baseline of bench/media.ts: bare Fastify serving one picture's bytes from memory (the file
 * BENCH_PICTURE_FILE names, read once at start), with its type and nothing else.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import { serveForBench } from '../lib/serve.ts';

const picture = fs.readFileSync(process.env.BENCH_PICTURE_FILE!);
const app = Fastify({ logger: false });
app.get('/picture', async (_request, reply) => reply.type('image/png').send(picture));
await serveForBench(app);

/**
 * The baseline of postgres.ts's cross-instance poke: the same path with no Chronicler code. Two of
 * these run on one PostgreSQL database; a PUT to one stores the body (one durable INSERT, its own
 * commit), then NOTIFYs through its pool, as the real server announces a commit after it
 * (sync-server/src/sync/instance-bridge.ts); every instance LISTENs on one dedicated connection
 * and writes `data: {"seq":N}` to each event stream it holds. No session, no audience, no rows.
 * The parent makes the table: `create table relay (seq bigserial primary key, content text not null)`.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { serveForBench } from '../lib/serve.ts';

const url = process.env.RELAY_DATABASE_URL;
if (!url) throw new Error('RELAY_DATABASE_URL is not set');
const CHANNEL = 'bench_relay';
const pool = new pg.Pool({ connectionString: url, max: 10 });
const listener = new pg.Client({ connectionString: url });
await listener.connect();
await listener.query(`listen ${CHANNEL}`);

const streams = new Set<NodeJS.WritableStream>();
listener.on('notification', (message) => {
  const frame = `data: {"seq":${message.payload}}\n\n`;
  for (const stream of streams) stream.write(frame);
});

const app = Fastify({ logger: false });
app.put('/relay/:id', async (request) => {
  const { content } = request.body as { content: string };
  const { rows } = await pool.query<{ seq: string }>('insert into relay (content) values ($1) returning seq', [content]);
  const seq = Number(rows[0]!.seq);
  await pool.query('select pg_notify($1, $2)', [CHANNEL, String(seq)]);
  return { id: (request.params as { id: string }).id, rev: seq };
});
app.get('/events', async (request, reply) => {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  reply.raw.write('event: hello\ndata: {}\n\n');
  streams.add(reply.raw);
  request.raw.on('close', () => streams.delete(reply.raw));
});
app.addHook('preClose', async () => {
  for (const stream of streams) stream.end();
});
app.addHook('onClose', async () => {
  await listener.end();
  await pool.end();
});
await serveForBench(app);

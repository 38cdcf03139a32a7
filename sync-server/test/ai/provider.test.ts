/**
 * The OpenAI-compatible provider through its real HTTP code (fetch) against a small
 * /v1/chat/completions server on 127.0.0.1 started here: streamed answers (with the final usage
 * chunk whose `choices` is empty), the spoiler-safe series bible in the prompt, one retry, a
 * timeout, and the fall-back to the built-in engine that says so.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_FALLBACK_NOTICE, createCompanion, parseChatStream } from '../../src/ai/provider.ts';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';

interface Received {
  path: string;
  authorization: string | undefined;
  body: { model: string; stream: boolean; messages: Array<{ role: string; content: string }> };
}

type Behaviour = 'stream' | 'fail' | 'hang' | 'json';

async function modelServer(behaviour: Behaviour | Behaviour[]) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw) });
      const now = Array.isArray(behaviour) ? (behaviour[received.length - 1] ?? 'stream') : behaviour;
      if (now === 'hang') return; // never answers
      if (now === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
        return;
      }
      if (now === 'json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Let Mara Vell lie to Kest Arun.' } }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (choices: unknown[], extra: object = {}) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
      res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' } }]));
      res.write(chunk([{ index: 0, delta: { content: 'Mara Vell should confront ' } }]));
      res.write(chunk([{ index: 0, delta: { content: 'Kest Arun at Greyharbour.' }, finish_reason: null }]));
      res.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
      res.write(chunk([], { usage: { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 } }));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

let t: TestApp | undefined;
let model: Awaited<ReturnType<typeof modelServer>> | undefined;
afterEach(async () => {
  await t?.close();
  model?.close().catch(() => undefined);
  t = undefined;
  model = undefined;
});

async function seriesWithLaterBook(behaviour: Behaviour | Behaviour[], timeoutMs = 5_000) {
  model = await modelServer(behaviour);
  t = await createTestApp({ ai: { baseUrl: model.baseUrl, apiKey: 'sk-test', model: 'tiny-model' } });
  t.app.companion.engines = createCompanion({ baseUrl: model.baseUrl, apiKey: 'sk-test', model: 'tiny-model', timeoutMs });
  const client = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
  const series = await client.create('/api/series', { title: 'Tides of Salt' });
  const book1 = await client.create('/api/books', { seriesId: series.id, title: 'The Salt Road' });
  const book2 = await client.create('/api/books', { seriesId: series.id, title: 'The Iron Tide' });
  const mara = await client.create('/api/characters', { seriesId: series.id, name: 'Mara Vell', role: 'protagonist', goals: 'find her brother' });
  const kest = await client.create('/api/characters', { seriesId: series.id, name: 'Kest Arun', role: 'antagonist' });
  await client.create('/api/characters', { seriesId: series.id, name: 'Sable Quint', bookAppearances: [2] });
  await client.create('/api/character-relationships', { sourceCharacterId: mara.id, targetCharacterId: kest.id, relationshipType: 'enemy' });
  await client.create('/api/locations', { seriesId: series.id, name: 'Greyharbour', importance: 'main' });
  await client.create('/api/chapters', { bookId: book1.id, title: 'Salt', content: 'Mara Vell walked the salt road to Greyharbour. Kest watched from the tower.' });
  await client.create('/api/chapters', { bookId: book2.id, title: 'Iron', content: 'SECRET OF BOOK TWO: the crown burns and Sable Quint betrays everyone.' });
  return { client, series, book1, book2 };
}

describe('parseChatStream', () => {
  it('joins the deltas and ignores the usage chunk with empty choices and [DONE]', () => {
    const body = [
      'data: {"choices":[{"delta":{"role":"assistant"}}]}',
      'data: {"choices":[{"delta":{"content":"Hel"}}]}',
      ': keep-alive comment',
      'data: {"choices":[{"delta":{"content":"lo"}}]}',
      'data: {"choices":[],"usage":{"total_tokens":3}}',
      'data: [DONE]',
    ].join('\n\n');
    expect(parseChatStream(body)).toBe('Hello');
  });
});

describe('the OpenAI-compatible provider', () => {
  it('streams a suggestion from /v1/chat/completions with the spoiler-safe series bible and no later-book text', async () => {
    const { client, series, book1 } = await seriesWithLaterBook('stream');
    const res = await client.post('/api/ai/suggestion', { seriesId: series.id, bookId: book1.id, type: 'conflict' });
    expect(res.statusCode, res.body).toBe(201);
    expect(json(res)).toMatchObject({ content: 'Mara Vell should confront Kest Arun at Greyharbour.', engine: 'model' });
    expect(json(res).notice).toBeUndefined();

    expect(model!.received).toHaveLength(1);
    const [call] = model!.received;
    expect(call!.path).toBe('/v1/chat/completions');
    expect(call!.authorization).toBe('Bearer sk-test');
    expect(call!.body).toMatchObject({ model: 'tiny-model', stream: true });
    const prompt = call!.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Series: Tides of Salt. Books so far: The Salt Road.');
    expect(prompt).toContain('Character: Mara Vell (protagonist, wants: find her brother)');
    expect(prompt).toContain('Character: Kest Arun');
    expect(prompt).toContain('Location: Greyharbour');
    for (const later of ['SECRET OF BOOK TWO', 'crown burns', 'Sable Quint', 'The Iron Tide']) expect(prompt).not.toContain(later);
  });

  it('accepts a provider that answers one JSON completion instead of a stream', async () => {
    const { client, series } = await seriesWithLaterBook('json');
    expect(json(await client.post('/api/ai/suggestion', { seriesId: series.id, type: 'dialogue' })).content).toBe('Let Mara Vell lie to Kest Arun.');
  });

  it('retries once, then falls back to the built-in engine and says so', async () => {
    const { client, series, book1 } = await seriesWithLaterBook('fail');
    const res = await client.post('/api/ai/suggestion', { seriesId: series.id, bookId: book1.id, type: 'conflict' });
    expect(res.statusCode).toBe(201);
    const row = json(res);
    expect(row).toMatchObject({ engine: 'builtin', notice: MODEL_FALLBACK_NOTICE });
    expect(row.content).toContain('Mara Vell and Kest Arun are enemies');
    expect(model!.received).toHaveLength(2);
  });

  it('succeeds on the retry after one failure', async () => {
    const { client, series } = await seriesWithLaterBook(['fail', 'stream']);
    expect(json(await client.post('/api/ai/suggestion', { seriesId: series.id, type: 'conflict' })).engine).toBe('model');
    expect(model!.received).toHaveLength(2);
  });

  it('gives up on a model that never answers after its timeout, twice', async () => {
    const { client, series } = await seriesWithLaterBook('hang', 150);
    const started = Date.now();
    const row = json(await client.post('/api/ai/suggestion', { seriesId: series.id, type: 'conflict' }));
    expect(row).toMatchObject({ engine: 'builtin', notice: MODEL_FALLBACK_NOTICE });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(model!.received).toHaveLength(2);
  });

  it('reads a chapter with the model when asked, counting it against the allowance; the built-in analysis is kept', async () => {
    const { client, book1 } = await seriesWithLaterBook('stream');
    const chapter = await client.create('/api/chapters', {
      bookId: book1.id,
      title: 'Long',
      content: 'Mara Vell was warned by the harbour master. She walked slowly along the pier, and Kest Arun watched her from the tower above the bay.',
    });
    const res = await client.post('/api/ai/analyze', { chapterId: chapter.id, useModel: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ engine: 'model', modelAnalysis: 'Mara Vell should confront Kest Arun at Greyharbour.' });
    expect(json(res).findings.length).toBeGreaterThan(0);
    expect(await client.read('/api/ai/allowance')).toMatchObject({ used: 1, modelConfigured: true });
  });
});

describe('the series bible sent to the model: aliases and "always include"', () => {
  it('carries the character the text names by an alias and the ones marked always include, never a later book’s', async () => {
    const { client, series, book1 } = await seriesWithLaterBook('stream');
    const orrin = await client.create('/api/characters', { seriesId: series.id, name: 'Orrin Tallow', aliases: ['  the Ferryman ', 'the ferryman', 'Old Oars'], bookAppearances: [1] });
    // Stored trimmed and once (ignoring case), and read back as sent through the API.
    expect(orrin).toMatchObject({ aliases: ['the Ferryman', 'Old Oars'], alwaysInclude: false });
    await client.create('/api/characters', { seriesId: series.id, name: 'Wren Hale', alwaysInclude: true, bookAppearances: [1] });
    await client.create('/api/characters', { seriesId: series.id, name: 'Ivo Strand', alwaysInclude: true, aliases: ['the Ferryman’s son'], bookAppearances: [2] });
    await client.create('/api/characters', { seriesId: series.id, name: 'Bran Lowe', bookAppearances: [1] });
    const chapter = await client.create('/api/chapters', {
      bookId: book1.id,
      title: 'Crossing',
      content: 'At dusk THE FERRYMAN pushed off from the pier without a word, and the river carried the boat past the drowned mill and the salt flats.',
    });
    const res = await client.post('/api/ai/analyze', { chapterId: chapter.id, useModel: true });
    expect(res.statusCode, res.body).toBe(200);
    const prompt = model!.received[0]!.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Character: Orrin Tallow, also called the Ferryman, Old Oars');
    expect(prompt).toContain('Character: Wren Hale');
    expect(prompt).not.toContain('Bran Lowe');
    // Marked "always include", but first appearing in book 2: a spoiler for a reader of book 1.
    expect(prompt).not.toContain('Ivo Strand');
  });

  it('refuses too many or too long aliases with a clear message', async () => {
    const { client, series } = await seriesWithLaterBook('stream');
    const many = await client.post('/api/characters', { seriesId: series.id, name: 'Many', aliases: Array.from({ length: 11 }, (_, i) => `Name ${i}`) });
    expect(many.statusCode).toBe(422);
    expect(many.body).toContain('At most 10 aliases');
    const long = await client.post('/api/characters', { seriesId: series.id, name: 'Long', aliases: ['x'.repeat(61)] });
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain('Each alias must be at most 60 characters');
  });

  it('carries a minor location the author marked always include, and main ones unmarked, never a later book’s', async () => {
    const { client, series, book1 } = await seriesWithLaterBook('stream');
    const mill = await client.create('/api/locations', { seriesId: series.id, name: 'Drowned Mill', importance: 'minor', bookAppearances: [1] });
    expect(mill).toMatchObject({ alwaysInclude: false });
    expect(await client.put(`/api/locations/${mill.id}`, { alwaysInclude: true })).toMatchObject({ statusCode: 200 });
    await client.create('/api/locations', { seriesId: series.id, name: 'Ember Gate', importance: 'minor', alwaysInclude: true, bookAppearances: [2] });
    await client.create('/api/locations', { seriesId: series.id, name: 'Cinder Row', importance: 'minor', bookAppearances: [1] });
    const chapter = await client.create('/api/chapters', { bookId: book1.id, title: 'Night', content: 'The lamps went out one by one along the quay, and nobody in the town dared to say aloud what they had seen on the water.' });
    const res = await client.post('/api/ai/analyze', { chapterId: chapter.id, useModel: true });
    expect(res.statusCode, res.body).toBe(200);
    const prompt = model!.received[0]!.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Location: Drowned Mill');
    expect(prompt).toContain('Location: Greyharbour');
    expect(prompt).not.toContain('Cinder Row');
    // Marked, but first appearing in book 2: a spoiler for a reader of book 1.
    expect(prompt).not.toContain('Ember Gate');
  });
});

describe('with no model configured', () => {
  it('sends nothing anywhere', async () => {
    model = await modelServer('stream');
    t = await createTestApp();
    const client = storyClient(t.app, await signUp(t.app));
    const series = await client.create('/api/series', { title: 'Quiet' });
    expect((await client.post('/api/ai/suggestion', { seriesId: series.id })).statusCode).toBe(201);
    const analysis = json(await client.post('/api/ai/analyze', { content: 'x '.repeat(80), useModel: true }));
    expect(analysis.engine).toBe('builtin');
    expect(model.received).toHaveLength(0);
    expect(t.app.companion.engines.modelConfigured).toBe(false);
  });
});

/**
 * A small HTTP server that keeps the pictures contract (docs/decisions/0023-pictures-on-the-device.md),
 * for the sync client's tests: a real socket and real requests, not a stand-in for our code.
 *
 *   PUT    /api/series/:seriesId/media/:sha256   raw image/webp or image/jpeg → 201 (new) / 200 (had it)
 *   GET    /api/series/:seriesId/media/:sha256   the bytes, immutable, ETag
 *   DELETE /api/series/:seriesId/media/:sha256   204
 *   GET    /api/media/usage                      {usedBytes, allowanceBytes, perPictureBytes}
 *   GET    /api/sync/changes                     an empty page (the engine's pull)
 *
 * 413 past the per-picture size or the allowance, 403 without `multimedia`, 415 for bytes that are
 * not WebP or JPEG, each with a JSON {message}. `online = false` drops every connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sniffImageType } from '../media/picture-format.ts';
import { sha256Hex } from '../media/store.ts';

export interface StoredPicture {
  /** The series it is kept for (one copy of the bytes, a use per series). */
  seriesIds: Set<string>;
  type: string;
  bytes: Uint8Array;
}

export interface PictureServer {
  baseUrl: string;
  /** What the server holds, by SHA-256. */
  pictures: Map<string, StoredPicture>;
  /** Every media request, in order: `PUT <sha>`, `GET <sha>`, `DELETE <sha>`. */
  log: string[];
  options: PictureServerOptions;
  close(): Promise<void>;
}

export interface PictureServerOptions {
  multimedia: boolean;
  perPictureBytes: number;
  allowanceBytes: number;
  /** False: every connection is dropped without an answer (the network is gone). */
  online: boolean;
  /** The next PUTs are stored but their answers lost (the connection dropped after the write). */
  loseAnswers: number;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

const MEDIA = /^\/api\/series\/([^/]+)\/media\/([0-9a-f]{64})$/;

export async function startPictureServer(options: Partial<PictureServerOptions> = {}): Promise<PictureServer> {
  const state: PictureServerOptions = { multimedia: true, perPictureBytes: 2 * 1024 * 1024, allowanceBytes: 5 * 1024 ** 3, online: true, loseAnswers: 0, ...options };
  const pictures = new Map<string, StoredPicture>();
  const log: string[] = [];
  const used = () => [...pictures.values()].reduce((sum, p) => sum + p.bytes.length, 0);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!state.online) {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api/sync/changes') return json(res, 200, { changes: {}, scopeAdded: [], scopeRemoved: [], cursor: 0, hasMore: false });
    if (url.pathname === '/api/media/usage') return json(res, 200, { usedBytes: used(), allowanceBytes: state.allowanceBytes, perPictureBytes: state.perPictureBytes });
    const match = MEDIA.exec(url.pathname);
    if (!match) return json(res, 404, { message: 'Not found' });
    const [, seriesId, sha] = match as unknown as [string, string, string];
    log.push(`${req.method} ${sha}`);
    if (req.method === 'GET') {
      const picture = pictures.get(sha);
      if (!picture || !picture.seriesIds.has(seriesId)) return json(res, 404, { message: 'Not found' });
      res.writeHead(200, { 'Content-Type': picture.type, ETag: `"${sha}"`, 'Cache-Control': 'private, max-age=31536000, immutable' });
      res.end(Buffer.from(picture.bytes));
      return;
    }
    if (req.method === 'DELETE') {
      pictures.delete(sha);
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'PUT') return json(res, 405, { message: 'Method not allowed' });
    const body = await readBody(req);
    if (!state.multimedia) return json(res, 403, { message: 'Pictures need the Loremaster tier or higher. Please upgrade your subscription to access it.' });
    const type = sniffImageType(body);
    if (type !== 'image/webp' && type !== 'image/jpeg') return json(res, 415, { message: 'Only WebP and JPEG pictures are accepted.' });
    if ((await sha256Hex(body)) !== sha) return json(res, 400, { message: 'The bytes do not match their name.' });
    if (body.length > state.perPictureBytes) return json(res, 413, { message: 'This picture is larger than your plan allows for one picture.' });
    const kept = pictures.get(sha);
    const had = kept?.seriesIds.has(seriesId) ?? false;
    if (!kept && used() + body.length > state.allowanceBytes) return json(res, 413, { message: 'Your cloud storage is full.' });
    if (kept) kept.seriesIds.add(seriesId);
    else pictures.set(sha, { seriesIds: new Set([seriesId]), type, bytes: body });
    if (state.loseAnswers > 0) {
      state.loseAnswers -= 1;
      req.socket.destroy();
      return;
    }
    return json(res, had ? 200 : 201, { sha256: sha, type, bytes: body.length, width: 0, height: 0 });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => json(res, 500, { message: 'Test server failure' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pictures,
    log,
    options: state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

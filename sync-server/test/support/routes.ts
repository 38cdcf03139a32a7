/**
 * The REAL route table: the app is built with an `onRoute` hook (BuildAppOptions.onRoute), so a
 * route added anywhere in src shows up here and in every test generated from it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type AppConfig, testConfig } from '../../src/config/config.ts';
import { sharedFakeStripe } from './fake-stripe.ts';

export interface RouteEntry {
  method: string;
  /** As registered, e.g. `/api/books/:id`. */
  url: string;
  /** `METHOD url`, the key of the route policy table. */
  key: string;
  /** Path parameter names in order of appearance. */
  params: string[];
  hasBodySchema: boolean;
  hasQuerySchema: boolean;
  /** May run inside POST /api/sync/batch (read once every onRoute hook has marked the route). */
  batchable(): boolean;
}

export interface AppWithRoutes {
  app: FastifyInstance;
  routes: RouteEntry[];
  close(): Promise<void>;
}

export function routeKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url}`;
}

function paramNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

/** Builds a test app (in-memory SQLite) and records every route it registers. */
export async function buildAppWithRoutes(overrides: Partial<AppConfig> = {}): Promise<AppWithRoutes> {
  const seen: RouteEntry[] = [];
  // Payments configured (against the fake Stripe), so billing routes are reached past their 503;
  // backup snapshots are files under DATA_DIR: each app gets its own temporary one.
  const stripe = (await sharedFakeStripe()).config();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-routes-'));
  const app = await buildApp(testConfig({ stripe, dataDir, ...overrides }), {
    onRoute(route: RouteOptions) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown };
        seen.push({
          method: method.toUpperCase(),
          url: route.url,
          key: routeKey(method, route.url),
          params: paramNames(route.url),
          hasBodySchema: schema.body !== undefined,
          hasQuerySchema: schema.querystring !== undefined,
          batchable: () => (route.config as { batchable?: boolean } | undefined)?.batchable === true,
        });
      }
    },
  });
  await app.ready();
  // HEAD twins that Fastify adds for every GET run the GET handler: covered through the GET.
  const gets = new Set(seen.filter((r) => r.method === 'GET').map((r) => r.url));
  const unique = new Map<string, RouteEntry>();
  for (const r of seen) {
    if (r.method === 'HEAD' && gets.has(r.url)) continue;
    unique.set(r.key, r);
  }
  const routes = [...unique.values()].sort((x, y) => x.key.localeCompare(y.key));
  return {
    app,
    routes,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The /api routes only: the web app's static routes are not part of the API. */
export function apiRoutes(routes: RouteEntry[]): RouteEntry[] {
  return routes.filter((r) => r.url === '/api' || r.url.startsWith('/api/'));
}

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  /** Body text; '' for a server-sent event stream (only its head is read). */
  body: string;
  streamed: boolean;
}

/**
 * `inject` that also copes with server-sent event streams, which never end: the head is read,
 * then the stream is abandoned. Every test request goes through here.
 */
export async function send(app: FastifyInstance, options: InjectOptions): Promise<Answer> {
  const controller = new AbortController();
  const res = await app.inject({ ...options, payloadAsStream: true, signal: controller.signal });
  const type = String(res.headers['content-type'] ?? '');
  const stream = res.stream();
  if (type.startsWith('text/event-stream')) {
    stream.on('error', () => {});
    controller.abort();
    return { status: res.statusCode, headers: res.headers, body: '', streamed: true };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), streamed: false };
}

/** Fills `:param` placeholders (values are URL-encoded unless `raw`). */
export function fillPath(url: string, values: Record<string, string>, raw = false): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${url}`);
    return raw ? value : encodeURIComponent(value);
  });
}

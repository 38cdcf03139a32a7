/**
 * buildApp(config) — the whole server as a Fastify instance that tests drive with `inject`
 * and main.ts starts listening. One plugin per domain (Fastify style), encapsulated.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '@chronicler/schema';
import type { AppConfig } from './config/config.ts';
import { type OpenedDatabase, openDatabase, storageLocation } from './db/database.ts';
import { probeStorage } from './db/dialect.ts';
import { HttpError, installErrorHandling } from './http/errors.ts';
import { refuseUnstorableIds } from './http/unstorable-ids.ts';
import { ChangeHub } from './sync/hub.ts';
import { refuseUnbatchableEntries } from './sync/batch.ts';
import { refuseCrossSiteAndNonJson } from './http/cross-site.ts';
import securityHeaders from './http/security-headers.ts';
import { cutSlowBodies } from './http/slow-bodies.ts';
import { closeUnreadBodies, limitConcurrentUploads, refuseOversizedBodies } from './http/unread-bodies.ts';
import authPlugin from './auth/plugin.ts';
import { backfillUsernameSkeletons } from './auth/users.ts';
import storyPlugin from './story/plugin.ts';
import { recountForWordRule } from './story/word-rule.ts';
import syncPlugin from './sync/plugin.ts';
import webPlugin from './web/plugin.ts';
import progressPlugin from './progress/plugin.ts';
import aiPlugin from './ai/plugin.ts';
import billingPlugin from './billing/plugin.ts';
import collaborationPlugin from './collaboration/plugin.ts';
import backupPlugin from './backup/plugin.ts';
import mediaPlugin from './media/plugin.ts';
import { createBackupWorkers, sharedBackupWorkers } from './backup/heavy-work.ts';

export interface AppDeps {
  config: AppConfig;
  database: OpenedDatabase;
  /** Tells SSE listeners which series a commit touched. */
  hub: ChangeHub;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

const MAX_JSON_DEPTH = 32;

/** Iterative, so a hostile body cannot overflow the stack here either. */
function nestingDepthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(node as object)) stack.push([child, depth + 1]);
  }
  return false;
}

export interface BuildAppOptions {
  /** Reuse an opened database (tests that restart the app on one file). */
  database?: OpenedDatabase;
  /** Sees every route as it is added (the authz matrix and fuzz tests build their route table from it). */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(config: AppConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const database = options.database ??
    (await openDatabase(storageLocation(config), {
      exclusiveProcess: !config.sharedProcesses,
      throwaway: config.throwawayDatabase,
      // A test's own file stands for one database its apps share (restarts, two instances).
      throwawayName: config.throwawayDatabase && config.databaseFile !== ':memory:' ? config.databaseFile : undefined,
      poolSize: config.databasePoolSize,
    }));
  await backfillUsernameSkeletons(database.db);
  await recountForWordRule(database.db);
  const app = Fastify({
    logger: config.logLevel === false ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Headers must arrive within requestTimeout too (Node checks every few seconds); bodies are
    // cut by cutSlowBodies below.
    requestTimeout: config.requestTimeoutMs,
    http: { connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(config.requestTimeoutMs / 4))) },
    // Reject duplicate/unknown JSON keys at the schema level; never echo internals.
    return503OnClosing: true,
    forceCloseConnections: true,
    // Router-level rejections (a path param longer than maxParamLength, a malformed %-escape)
    // answer {message, code} too, not Fastify's raw body with an FST_ERR code and the path.
    frameworkErrors: (error, _request, reply) =>
      void (reply as FastifyReply).status(error.statusCode ?? 400).send({ message: 'Invalid request', code: ERROR_CODES.badRequest }),
  }).withTypeProvider<ZodTypeProvider>();

  // A body-less POST/DELETE sent with a JSON content type (fetch wrappers do this) is not an
  // error: treat an empty JSON body as no body. Anything else must parse as JSON.
  // Fastify's own parser (with prototype-poisoning protection: such bodies are rejected).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // JSON only: a text/plain body is what a foreign page can send without a preflight (415).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), (error, value) => {
      if (error) return done(error, undefined);
      // No real request nests deeper than a handful of levels; recursive code further on
      // (hashing, re-serialising a batch entry) must never meet a 100,000-level body.
      if (nestingDepthExceeds(value, MAX_JSON_DEPTH)) {
        return done(new HttpError(400, ERROR_CODES.badRequest, `The request body is nested more than ${MAX_JSON_DEPTH} levels deep`), undefined);
      }
      done(null, value);
    });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', { config, database, hub: new ChangeHub() } satisfies AppDeps);
  installErrorHandling(app);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // First of all hooks: a batch entry aimed at a route outside the allow-list runs nothing else.
  app.addHook('onRequest', refuseUnbatchableEntries);
  // Refuse before reading (http/unread-bodies.ts): any answer given while a body is still arriving
  // closes the connection instead of reading the rest.
  app.addHook('onSend', closeUnreadBodies);
  app.addHook('onRequest', refuseCrossSiteAndNonJson);
  app.addHook('onRequest', cutSlowBodies(config.requestTimeoutMs));
  app.addHook('preValidation', refuseUnstorableIds);

  await app.register(securityHeaders);

  // Health for the e2e harness, operators and load balancers; says nothing about users. It asks the
  // database too: an instance that cannot reach it answers 503 (http/errors.ts), so a balancer
  // sends authors elsewhere (README, "Running on PostgreSQL").
  app.get('/api/health', { config: { public: true } }, async () => {
    await probeStorage(database.db);
    return { ok: true };
  });

  await app.register(cookie);
  await app.register(authPlugin);
  // After the session is known (auth's onRequest hooks; an anonymous caller has had its 401): a body
  // longer than the route takes, from its Content-Length; bodies still arriving, per author and address.
  app.addHook('onRequest', refuseOversizedBodies);
  app.addHook('onRequest', limitConcurrentUploads());
  await app.register(storyPlugin);
  await app.register(syncPlugin);
  await app.register(progressPlugin);
  await app.register(aiPlugin);
  await app.register(billingPlugin);
  await app.register(collaborationPlugin);
  await app.register(mediaPlugin);
  // Archives are built on worker threads (docs/decisions/0015-isolation.md): a pool per app, or the
  // process's pool when the config shares it (the tests' hundreds of short-lived apps: a worker's
  // start loads the archive's module graph through tsx, seconds on a busy machine). A pool with its
  // own memory cap is always the app's own.
  const ownWorkers = !config.shareProcessWorkers || Boolean(config.workerMemoryMb);
  const backupWorkers = ownWorkers ? createBackupWorkers(config.workerMemoryMb ?? null) : sharedBackupWorkers();
  app.decorate('backupWorkers', backupWorkers);
  if (ownWorkers) app.addHook('onClose', async () => backupWorkers.close());
  await app.register(backupPlugin);
  if (config.webDist) await app.register(webPlugin, { root: config.webDist, serveSourceMaps: config.serveSourceMaps });

  if (!options.database) app.addHook('onClose', async () => database.close());
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * The real server as production builds it: configFromEnv (DATA_DIR from the parent, a file
 * database in WAL with synchronous=FULL, OWASP scrypt cost) and buildApp. Only request logging is
 * off by default (LOG_LEVEL=silent from the parent), as in the bare Fastify baseline.
 */
import { buildApp } from '@chronicler/sync-server';
// configFromEnv is what main.ts uses to read the environment.
import { configFromEnv, testConfig } from '@chronicler/sync-server/config';
import { tuneServerRuntime } from '@chronicler/sync-server/runtime';
import { serveForBench } from '../lib/serve.ts';

// As main.ts does (BENCH_DEFAULT_RUNTIME=1 leaves V8 as it comes, for an A/B).
if (!process.env.BENCH_DEFAULT_RUNTIME) tuneServerRuntime();
const config = configFromEnv(process.env);
// BENCH_FAST_SIGNUP=1: the tests' scrypt cost and no sign-up throttle, for benches that sign up
// hundreds of authors as set-up (soak.ts); no bench measures a sign-in with it.
if (process.env.BENCH_FAST_SIGNUP === '1') Object.assign(config, { scrypt: testConfig().scrypt, rateLimit: testConfig().rateLimit });
const app = await buildApp(config);
// Writes per COMMIT tell how much group commit shares each fsync (bench/server-http.ts).
const { stats } = app.deps.database.groupCommit;
await serveForBench(app, () => ({ commits: stats.commits, committedWrites: stats.members }));

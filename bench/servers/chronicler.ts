/**
 * The real server as production builds it: configFromEnv (DATA_DIR from the parent, a file
 * database in WAL with synchronous=FULL, OWASP scrypt cost) and buildApp. Only request logging is
 * off by default (LOG_LEVEL=silent from the parent), as in the bare Fastify baseline.
 */
import { buildApp } from '@chronicler/sync-server';
// configFromEnv is what main.ts uses to read the environment.
import { configFromEnv } from '@chronicler/sync-server/config';
import { serveForBench } from '../lib/serve.ts';

const app = await buildApp(configFromEnv(process.env));
// Writes per COMMIT tell how much group commit shares each fsync (bench/server-http.ts).
const { stats } = app.deps.database.groupCommit;
await serveForBench(app, () => ({ commits: stats.commits, committedWrites: stats.members }));

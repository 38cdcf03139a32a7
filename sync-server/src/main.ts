/**
 * Starts the server: one line with the address on start, a clean shutdown on SIGINT/SIGTERM
 * (in-flight requests finish, SSE streams close, the database is closed).
 */
import { buildApp } from './app.ts';
import { startBackupSchedule } from './backup/plugin.ts';
import { configFromEnv } from './config/config.ts';
import { NewerDatabaseError, StorageStartError } from './db/database.ts';
import { tuneServerRuntime } from './runtime.ts';

tuneServerRuntime();

const SHUTDOWN_TIMEOUT_MS = 10_000;

let config: ReturnType<typeof configFromEnv>;
try {
  config = configFromEnv();
} catch (error) {
  console.error(`Configuration error: ${(error as Error).message}`);
  process.exit(1);
}

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp(config);
} catch (error) {
  // A malformed or unreachable DATABASE_URL, or a database made by a newer version: say what is
  // wrong (never the password, db/postgres/url.ts) and stop.
  if (error instanceof StorageStartError || error instanceof NewerDatabaseError) {
    console.error(`Could not open the database: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
// Scheduled backups of every author's series, per plan (docs/server.md#backups); stopped when the app closes.
startBackupSchedule(app);
try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  console.error(
    code === 'EADDRINUSE'
      ? `Port ${config.port} is already in use; set PORT to another port.`
      : `Could not start the server: ${(error as Error).message}`,
  );
  await app.close();
  process.exit(1);
}

const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
console.log(`Chronicler is running at http://${shownHost}:${config.port}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1); // a second Ctrl-C: stop now
    stopping = true;
    const timer = setTimeout(() => {
      console.error('Shutdown took too long; exiting.');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Error during shutdown: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  });
}

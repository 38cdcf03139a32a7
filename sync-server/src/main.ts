import { buildApp } from './app.ts';
import { configFromEnv } from './config.ts';

const config = configFromEnv();
const app = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

/**
 * A vitest environment for the sync tests that run the real server in-process: vitest's jsdom
 * environment (so the web package's shared setup file and any DOM code find what they expect), but
 * with Node's own ArrayBuffer and typed arrays put back. jsdom's copies of those come from another
 * realm, and Fastify then takes a Buffer payload for a plain object (`buffer instanceof
 * ArrayBuffer` fails) and answers it as `{"type":"Buffer",...}`.
 *
 * Use with `// @vitest-environment sync-node` (this folder is linked as the web devDependency
 * `vitest-environment-sync-node`, which is how vitest finds environments named in a docblock).
 */
import { builtinEnvironments } from 'vitest/environments';
import type { Environment } from 'vitest/environments';

const NODE_REALM = [
  'ArrayBuffer',
  'Uint8Array',
  'Uint8ClampedArray',
  'Uint16Array',
  'Uint32Array',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'Float32Array',
  'Float64Array',
] as const;

const jsdom = builtinEnvironments.jsdom;

const environment: Environment = {
  name: 'sync-node',
  viteEnvironment: 'ssr',
  async setup(global: Record<string, unknown>, options: Record<string, unknown>) {
    const nodeOwn = new Map(NODE_REALM.map((k) => [k, Object.getOwnPropertyDescriptor(global, k)]));
    const inner = await jsdom.setup(global, options);
    for (const [key, descriptor] of nodeOwn) if (descriptor) Object.defineProperty(global, key, descriptor);
    return {
      async teardown(g: Record<string, unknown>) {
        await inner.teardown(g);
        for (const [key, descriptor] of nodeOwn) if (descriptor) Object.defineProperty(g, key, descriptor);
      },
    };
  },
};

export default environment;

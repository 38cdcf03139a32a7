/**
 * A vitest environment for the sync tests that run the real server in-process: Node's globals
 * (jsdom's realm breaks Buffer payloads inside Fastify) plus the few browser names the web
 * package's shared setup file (src/test/setup.ts) touches: window, Element, localStorage,
 * sessionStorage. Use with `// @vitest-environment sync-node` (this folder is linked as the web devDependency
 * `vitest-environment-sync-node`, which is how vitest finds environments named in a docblock).
 */
import type { Environment } from 'vitest/environments';

class MemoryStorage {
  private readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
}

const SHIMS = ['window', 'Element', 'localStorage', 'sessionStorage'] as const;

const environment: Environment = {
  name: 'sync-node',
  viteEnvironment: 'ssr',
  setup(global: Record<string, unknown>) {
    const had = new Map(SHIMS.map((k) => [k, Object.getOwnPropertyDescriptor(global, k)]));
    global.localStorage ??= new MemoryStorage();
    global.sessionStorage ??= new MemoryStorage();
    global.Element ??= class Element {};
    global.window ??= global;
    return {
      teardown(g: Record<string, unknown>) {
        for (const k of SHIMS) {
          const d = had.get(k);
          if (d) Object.defineProperty(g, k, d);
          else delete g[k];
        }
      },
    };
  },
};

export default environment;

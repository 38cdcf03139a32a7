/**
 * Loads the body schemas (body-schemas.ts: zod and every schema it builds) once, on the first write,
 * so that reading — the signed-in shell and the dashboard's first screen — neither downloads nor
 * evaluates zod (issue 16: ~26 ms of schema building before the dashboard could paint).
 */
import type * as BodySchemasModule from './body-schemas.ts';

export type BodySchemas = typeof BodySchemasModule;

let loading: Promise<BodySchemas> | undefined;
let loaded: BodySchemas | undefined;

/**
 * The schemas, loaded once. Every outbox write awaits this same promise before it does anything,
 * so writes asked for in a row still run in that order (its awaiters resume first come, first
 * served). A failed download (offline, before the service worker has cached it) is tried again by
 * the next write.
 */
export function loadBodySchemas(): Promise<BodySchemas> {
  loading ??= import('./body-schemas.ts').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The schemas, for code that runs inside a write's transaction (awaiting a download there would let
 * IndexedDB commit it): the mutator that started the write has awaited `loadBodySchemas` already.
 */
export function loadedBodySchemas(): BodySchemas {
  if (!loaded) throw new Error('The body schemas are used before a mutator loaded them (loadBodySchemas)');
  return loaded;
}

/** Types of first-route-size.mjs, for the TypeScript callers (its test, the e2e first-load spec). */
export interface RouteBudget {
  budgetBytes: number;
  lazyModules: string[];
  /** Files (JS and CSS) requested for the entry and lazyModules. */
  maxRequests?: number;
  /** Modules loaded once the first paint is on screen (`/`'s signed-in shell and dashboard). */
  afterPaintModules?: string[];
  /** Files requested for afterPaintModules beyond the first paint's. */
  maxRequestsAfterPaint?: number;
  note?: string;
}
export interface RequestCount {
  count: number;
  budget: number | null;
  over: boolean;
  files: string[];
}
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export interface RouteMeasure {
  route: string;
  bytes: number;
  budget: number;
  over: boolean;
  chunks: Array<{ file: string; bytes: number }>;
  requests: RequestCount;
  afterPaintRequests: RequestCount;
}
export const DEFAULT_CONFIG: string;
export function readConfig(file?: string): Record<string, RouteBudget>;
export function readManifest(dist: string): Record<string, ManifestChunk>;
export function routeChunks(manifest: Record<string, ManifestChunk>, lazyModules: string[]): string[];
export function requestedFiles(manifest: Record<string, ManifestChunk>, jsFiles: string[]): string[];
export function isOver(result: RouteMeasure): boolean;
export function gzipBytes(file: string): number;
export function measureFirstRoutes(dist: string, routes?: Record<string, RouteBudget>): RouteMeasure[];
export function report(results: RouteMeasure[]): string;

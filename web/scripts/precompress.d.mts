/** Types of precompress.mjs, for TypeScript callers (bench/lighthouse.ts). */
export const COMPRESSIBLE: RegExp;
export function precompress(dist: string): number;

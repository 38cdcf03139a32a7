/** The text-merge bench's cases in the page: bundled by esbuild, run by bench/text-merge.ts. */
import { runTextMergeBench } from '../lib/text-merge-cases.ts';

(globalThis as unknown as { __textMergeBench: typeof runTextMergeBench }).__textMergeBench = runTextMergeBench;

/** The companion bench's browser part: bundled by esbuild, run by bench/companion.ts in Chromium. */
import { runAnalysisBench } from '../lib/companion-cases.ts';

(globalThis as unknown as { __companionBench: typeof runAnalysisBench }).__companionBench = runAnalysisBench;

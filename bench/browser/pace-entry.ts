/** The pace bench's case in the page: bundled by esbuild, run by bench/pace.ts. */
import { runPaceBench } from '../lib/pace-cases.ts';

(globalThis as unknown as { __paceBench: typeof runPaceBench }).__paceBench = runPaceBench;

/** Messages between the page and the search worker (search.worker.ts, model/search-client.ts). */
import type { SearchAnswer } from '../model/engine';

export type ToSearchWorker =
  | { type: 'open'; userId: string }
  | { type: 'search'; id: number; query: string; seriesId: string | null };

export type SearchPhase = 'opening' | 'ready' | 'failed';

export type FromSearchWorker =
  | { type: 'status'; phase: SearchPhase; documents: number; origin?: 'stored' | 'built'; message?: string; epoch: number }
  | { type: 'answer'; id: number; answer: SearchAnswer; tookMs: number };

/**
 * The companion's calls (spec 000 §7): generating a suggestion and reading the allowance need the
 * server; analysis runs on the device with the same built-in code (packages/companion) when the
 * server cannot be reached, so it works offline.
 */
import { type AiAllowance, type AiSuggestion, type AiSuggestionType } from '@chronicler/schema';
import { type ProseAnalysis, analyzeProse } from '@chronicler/companion';
import { apiRequest, isNetworkError } from '@/lib/api';

export type GeneratedSuggestion = AiSuggestion & { notice?: string };

export function generateSuggestion(body: { seriesId: string; bookId?: string | null; type?: AiSuggestionType }): Promise<GeneratedSuggestion> {
  return apiRequest<GeneratedSuggestion>('POST', '/api/ai/suggestion', body);
}

export function fetchAllowance(): Promise<AiAllowance> {
  return apiRequest<AiAllowance>('GET', '/api/ai/allowance');
}

export function fetchSuggestions(seriesId: string): Promise<AiSuggestion[]> {
  return apiRequest<AiSuggestion[]>('GET', `/api/ai/suggestions?seriesId=${encodeURIComponent(seriesId)}`);
}

export type AnalysisResult = ProseAnalysis & { engine: 'builtin' | 'model'; notice?: string; onDevice?: boolean };

/** POST /api/ai/analyze when online; the same analysis on the device when offline or unreachable. */
export async function analyzeText(content: string, online: boolean): Promise<AnalysisResult> {
  if (!online) return { ...analyzeProse(content), engine: 'builtin', onDevice: true };
  try {
    return await apiRequest<AnalysisResult>('POST', '/api/ai/analyze', { content });
  } catch (error) {
    if (isNetworkError(error)) return { ...analyzeProse(content), engine: 'builtin', onDevice: true };
    throw error;
  }
}

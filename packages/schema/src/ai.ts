/**
 * The AI companion's shapes (spec 000 §2, §3, §5, §7; docs/server.md#ai-companion): suggestion
 * types, the stored suggestion (a synced, series-scoped row), the request bodies, and the daily
 * allowance read.
 */
import { z } from 'zod';
import { LIMITS, syncedRowSchema } from './entities.ts';
import { MESSAGES, MINIMUMS } from './messages.ts';

/** The AI page's types, then the two the dashboard panel also uses (000 §2). */
export const AI_PAGE_SUGGESTION_TYPES = ['plotIdea', 'characterDevelopment', 'dialogue', 'worldBuilding', 'conflict'] as const;
export const AI_SUGGESTION_TYPES = [...AI_PAGE_SUGGESTION_TYPES, 'insight', 'consistency'] as const;
export type AiSuggestionType = (typeof AI_SUGGESTION_TYPES)[number];
export const aiSuggestionTypeSchema = z.enum(AI_SUGGESTION_TYPES);

export const AI_SUGGESTION_LABELS: Readonly<Record<AiSuggestionType, string>> = {
  plotIdea: 'Plot idea',
  characterDevelopment: 'Character development',
  dialogue: 'Dialogue',
  worldBuilding: 'World building',
  conflict: 'Conflict',
  insight: 'Insight',
  consistency: 'Consistency',
};

/** Which engine wrote a suggestion or an analysis. */
export const AI_ENGINES = ['builtin', 'model'] as const;
export type AiEngine = (typeof AI_ENGINES)[number];

const id = z.uuid({ error: 'Must be a valid id' });

/** A generated suggestion, stored and synced so the list reads offline (000 §3: id, type, content). */
export const aiSuggestionSchema = syncedRowSchema.extend({
  seriesId: id,
  /** The book chosen when it was generated (spoiler-safe up to it), or null for the whole series. */
  bookId: id.nullable(),
  type: aiSuggestionTypeSchema,
  content: z.string(),
  engine: z.enum(AI_ENGINES),
  /** The entities it names (characters, locations, events), for links. */
  entityIds: z.array(id),
  authorId: id,
});
export type AiSuggestion = z.infer<typeof aiSuggestionSchema>;

export const aiSuggestionsQuerySchema = z.strictObject({
  seriesId: z.uuid({ error: MESSAGES.ai.seriesRequired }),
  bookId: id.optional(),
});

/** POST /api/ai/suggestion: "Generating a suggestion needs a series: otherwise the error 'Series ID is required'" (000 §5). */
export const createAiSuggestionBodySchema = z.strictObject({
  seriesId: z.uuid({ error: MESSAGES.ai.seriesRequired }),
  bookId: id.nullish(),
  /** Omitted: the engine picks the type the series most needs. */
  type: aiSuggestionTypeSchema.optional(),
});
export type CreateAiSuggestionBody = z.input<typeof createAiSuggestionBodySchema>;

/** POST /api/ai/analyze: a chapter of the author's, or pasted text of at least 100 characters. */
export const analyzeBodySchema = z
  .strictObject({
    chapterId: id.optional(),
    content: z.string().max(LIMITS.chapterContent, { error: `Must be at most ${LIMITS.chapterContent} characters` }).optional(),
    /** Ask the configured model as well (counts against the daily allowance); built-in otherwise. */
    useModel: z.boolean().optional(),
  })
  .refine((b) => b.chapterId !== undefined || b.content !== undefined, { error: MESSAGES.ai.textTooShort, path: ['content'] })
  .refine((b) => b.content === undefined || b.chapterId !== undefined || b.content.trim().length >= MINIMUMS.analysisText, {
    error: MESSAGES.ai.textTooShort,
    path: ['content'],
  });
export type AnalyzeBody = z.input<typeof analyzeBodySchema>;

/** GET /api/ai/allowance: what the dashboard shows as the remaining daily limit. */
export interface AiAllowance {
  /** -1 when unlimited (000 §6). */
  limit: number;
  used: number;
  /** -1 when unlimited. */
  remaining: number;
  /** The author's local day it counts, YYYY-MM-DD. */
  day: string;
  timeZone: string;
  /** Whether a model is configured on the server (otherwise the built-in engine answers). */
  modelConfigured: boolean;
}

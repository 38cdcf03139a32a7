/**
 * The companion's engines behind one interface (docs/server.md#ai-companion): the
 * built-in one (packages/companion: no network, no weights, always there) and an OpenAI-compatible
 * HTTP one when AI_BASE_URL is set. The model is asked with a compact spoiler-safe series bible
 * (packages/companion seriesBible) and nothing else from the series; on any failure the built-in
 * answer is used and the answer says so. Nothing is sent anywhere when no model is configured.
 */
import { type AiEngine, type AiSuggestionType, AI_SUGGESTION_LABELS } from '@chronicler/schema';
import { type SeriesFindings, type SeriesMaterial, type SuggestionDraft, pickSuggestion, seriesBible } from '@chronicler/companion';

export interface ModelConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Per attempt; one retry follows a failed attempt. */
  timeoutMs: number;
}

export interface GeneratedSuggestion extends SuggestionDraft {
  engine: AiEngine;
  /** Set when the model failed and the built-in engine answered instead. */
  notice?: string;
}

export const MODEL_FALLBACK_NOTICE = 'The AI model could not be reached, so the built-in companion wrote this instead.';
export const MODEL_ANALYSIS_FALLBACK_NOTICE = 'The AI model could not be reached, so this is the built-in analysis only.';
export const NO_MODEL_NOTICE = 'No AI model is configured on this server: this is the built-in analysis.';
export const MODEL_ATTEMPTS = 2;
const MAX_ANSWER_CHARS = 4_000;

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

function completionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

/**
 * The text of a streamed chat completion (server-sent events of `chat.completion.chunk`): the
 * `delta.content` of each chunk's choices, in order. Chunks with empty `choices` (the final usage
 * chunk real providers send with `stream_options.include_usage`) and `[DONE]` carry no text.
 */
export function parseChatStream(body: string): string {
  let text = '';
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string | null }; message?: { content?: string | null } }> };
    for (const choice of chunk.choices ?? []) text += choice.delta?.content ?? choice.message?.content ?? '';
  }
  return text;
}

class ModelError extends Error {}

async function attempt(config: ModelConfig, messages: readonly ChatMessage[]): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  try {
    const res = await fetch(completionsUrl(config.baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: config.model,
        messages,
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.7,
        max_tokens: 400,
      }),
      signal: controller.signal,
    });
    if (!res.ok) throw new ModelError(`The model answered ${res.status}`);
    const body = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    // A provider that ignores `stream` answers one JSON completion.
    const text = contentType.includes('application/json')
      ? ((JSON.parse(body) as { choices?: Array<{ message?: { content?: string } }> }).choices?.[0]?.message?.content ?? '')
      : parseChatStream(body);
    const trimmed = text.trim();
    if (trimmed === '') throw new ModelError('The model answered nothing');
    return trimmed.slice(0, MAX_ANSWER_CHARS);
  } finally {
    clearTimeout(timer);
  }
}

/** One chat completion with a timeout per attempt and one retry; throws when both fail. */
export async function chatCompletion(config: ModelConfig, messages: readonly ChatMessage[]): Promise<string> {
  let last: unknown;
  for (let i = 0; i < MODEL_ATTEMPTS; i++) {
    try {
      return await attempt(config, messages);
    } catch (error) {
      last = error;
    }
  }
  throw last instanceof Error ? last : new ModelError('The model failed');
}

export interface SuggestionRequest {
  material: SeriesMaterial;
  /** The built-in rules' findings for the material up to `bookId` (companion seriesFindings). */
  findings: SeriesFindings & { safe: SeriesMaterial };
  type?: AiSuggestionType | undefined;
  bookId?: string | null | undefined;
  previous: ReadonlySet<string> | readonly string[];
}

/** The text the bible picks mentioned entries from: the latest written chapter up to the chosen book. */
function textAtHand(safe: SeriesMaterial): string {
  const order = new Map([...safe.books].sort((a, b) => a.position - b.position).map((b, i) => [b.id, i]));
  const written = safe.chapters
    .filter((c) => c.content.trim() !== '' && order.has(c.bookId))
    .sort((a, b) => order.get(a.bookId)! - order.get(b.bookId)! || a.position - b.position);
  return written.at(-1)?.content.slice(-4_000) ?? '';
}

export function suggestionPrompt(request: SuggestionRequest, draft: SuggestionDraft, bible: string): ChatMessage[] {
  const label = AI_SUGGESTION_LABELS[draft.type].toLowerCase();
  return [
    {
      role: 'system',
      content:
        'You are the writing companion of a novelist working on a book series. Use only the series bible below; never invent ' +
        'events of later books. Answer with one suggestion in 2 to 4 sentences, naming the characters or places it is about.\n\n' +
        `Series bible:\n${bible}`,
    },
    { role: 'user', content: `Give me one ${label} suggestion. Something the series may need: ${draft.content}` },
  ];
}

export interface Companion {
  readonly modelConfigured: boolean;
  suggestion(request: SuggestionRequest): Promise<GeneratedSuggestion>;
  /** A model's reading of a text, or null (with the reason) when no model answered. */
  modelAnalysis(text: string, material: SeriesMaterial | null, bookId: string | null): Promise<{ text: string } | { notice: string }>;
}

export function createCompanion(model: ModelConfig | null): Companion {
  return {
    modelConfigured: model !== null,
    async suggestion(request) {
      const draft = pickSuggestion(request.findings, { type: request.type, previous: request.previous });
      if (!model) return { ...draft, engine: 'builtin' };
      const safe = request.findings.safe;
      const bible = seriesBible(request.material, { bookId: request.bookId, text: textAtHand(safe) });
      try {
        const content = await chatCompletion(model, suggestionPrompt(request, draft, bible));
        return { type: draft.type, content, entityIds: draft.entityIds, engine: 'model' };
      } catch {
        return { ...draft, engine: 'builtin', notice: MODEL_FALLBACK_NOTICE };
      }
    },
    async modelAnalysis(text, material, bookId) {
      if (!model) return { notice: NO_MODEL_NOTICE };
      const bible = material ? seriesBible(material, { bookId, text }) : '';
      try {
        const answer = await chatCompletion(model, [
          {
            role: 'system',
            content:
              'You are the writing companion of a novelist. Give a short, concrete critique of the passage: pacing, clarity, ' +
              `voice, and consistency with the series bible when one is given.${bible ? `\n\nSeries bible:\n${bible}` : ''}`,
          },
          { role: 'user', content: text.slice(0, 24_000) },
        ]);
        return { text: answer };
      } catch {
        return { notice: MODEL_ANALYSIS_FALLBACK_NOTICE };
      }
    },
  };
}

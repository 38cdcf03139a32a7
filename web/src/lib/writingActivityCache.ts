/**
 * The analytics page's last answer of GET /api/writing-activity, kept on this device so the page
 * draws its time-of-day, session and book figures offline (docs/decisions/0019-analytics-charts.md).
 * One entry, tagged with its author; sign-out removes it with the rest of the author's data
 * (lib/session.ts). An answer too large for localStorage is kept for this page load only.
 */
import type { WritingActivityAnswer } from '@chronicler/schema';
import { readLocalJson, writeLocal } from './storage';

export const WRITING_ACTIVITY_KEY = 'chronicler:writing-activity';
/** localStorage holds ~5 MB per origin, shared with the app's other keys. */
const MAX_STORED_CHARS = 1_500_000;

export interface CachedWritingActivity {
  userId: string;
  /** Epoch ms of the answer. */
  fetchedAt: number;
  answer: WritingActivityAnswer;
}

let inMemory: CachedWritingActivity | null = null;

export function readWritingActivity(userId: string): CachedWritingActivity | null {
  if (inMemory?.userId === userId) return inMemory;
  const stored = readLocalJson<CachedWritingActivity>(WRITING_ACTIVITY_KEY);
  if (stored?.userId !== userId || !Array.isArray(stored.answer?.minutes) || !Array.isArray(stored.answer?.chapters)) return null;
  inMemory = stored;
  return stored;
}

export function storeWritingActivity(entry: CachedWritingActivity): void {
  inMemory = entry;
  const json = JSON.stringify(entry);
  if (json.length <= MAX_STORED_CHARS) writeLocal(WRITING_ACTIVITY_KEY, json);
}

/** Forgets the answer (sign-out). */
export function forgetWritingActivity(): void {
  inMemory = null;
}

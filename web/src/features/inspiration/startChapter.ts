import type { Chapter } from '@chronicler/schema';
import type { Mutators } from '@chronicler/sync-client';
import type { WritingPrompt } from './prompts';

/**
 * "Use prompt": a new chapter at the end of the book, titled after the prompt, whose text opens
 * with the prompt as a note to write from (the author deletes it when done). Written through the
 * mutators, so it works offline and syncs like any chapter.
 */
export async function startChapterFromPrompt(mutators: Mutators, bookId: string, prompt: WritingPrompt): Promise<Chapter> {
  return mutators.chapters.create({ bookId, title: prompt.title, content: `[Prompt: ${prompt.text}]\n\n` });
}

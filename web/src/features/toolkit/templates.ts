/**
 * The Writer's Toolkit (premium product `writers-toolkit`): plot-structure templates that
 * lay out a book's chapters with beat notes, and worksheets whose guided questions fill in the
 * existing character and location fields.
 */
import type { Chapter, CreateCharacterBody, CreateLocationBody } from '@chronicler/schema';
import type { Mutators } from '@chronicler/sync-client';

export interface Beat {
  title: string;
  note: string;
}

export interface PlotTemplate {
  id: string;
  name: string;
  summary: string;
  beats: readonly Beat[];
}

export const PLOT_TEMPLATES: readonly PlotTemplate[] = [
  {
    id: 'three-act',
    name: 'Three-act structure',
    summary: 'Setup, confrontation and resolution, turned by two plot points and a midpoint.',
    beats: [
      { title: 'Opening image', note: 'Show the world and your protagonist as they are before the story changes them.' },
      { title: 'Inciting incident', note: 'Something happens that the protagonist cannot ignore.' },
      { title: 'First plot point', note: 'The protagonist commits: there is no way back to the old life. End of act one.' },
      { title: 'Rising action', note: 'New allies, enemies and rules; the first attempts, and their cost.' },
      { title: 'Midpoint', note: 'A revelation or reversal raises the stakes and changes what the protagonist wants.' },
      { title: 'Closing in', note: 'The opposition tightens its grip; plans fail; bonds strain.' },
      { title: 'Second plot point', note: 'The lowest moment, then the last piece of the puzzle. End of act two.' },
      { title: 'Climax', note: 'The final confrontation, won or lost by the choice the whole book prepared.' },
      { title: 'Resolution', note: 'The new normal: show what changed, and what it cost.' },
    ],
  },
  {
    id: 'heros-journey',
    name: 'The hero’s journey',
    summary: 'Twelve stages from the ordinary world to the return with the elixir.',
    beats: [
      { title: 'The ordinary world', note: 'The hero at home, with the flaw or lack the journey will answer.' },
      { title: 'The call to adventure', note: 'A problem, a message or a loss invites the hero out.' },
      { title: 'Refusal of the call', note: 'Fear, duty or doubt holds the hero back.' },
      { title: 'Meeting the mentor', note: 'Someone gives advice, a gift or a push.' },
      { title: 'Crossing the threshold', note: 'The hero leaves the known world.' },
      { title: 'Tests, allies and enemies', note: 'The rules of the new world, learned the hard way.' },
      { title: 'Approach to the inmost cave', note: 'Preparation for the great ordeal; the danger draws close.' },
      { title: 'The ordeal', note: 'A brush with death — real or symbolic — from which the hero rises changed.' },
      { title: 'The reward', note: 'The hero seizes the sword, the secret, the love.' },
      { title: 'The road back', note: 'Consequences chase the hero home.' },
      { title: 'Resurrection', note: 'A final test where everything learned is used.' },
      { title: 'Return with the elixir', note: 'Home again, bringing something that heals the ordinary world.' },
    ],
  },
  {
    id: 'seven-point',
    name: 'Seven-point structure',
    summary: 'Plan from both ends: the resolution mirrors the hook, the pinches apply pressure.',
    beats: [
      { title: 'Hook', note: 'Start in the state opposite to the resolution.' },
      { title: 'Plot turn 1', note: 'The call to action: the world changes and the story begins.' },
      { title: 'Pinch 1', note: 'The antagonist applies pressure; the protagonist is forced to act.' },
      { title: 'Midpoint', note: 'The protagonist moves from reacting to acting.' },
      { title: 'Pinch 2', note: 'The worst happens: the plan fails, the mentor falls, all seems lost.' },
      { title: 'Plot turn 2', note: 'The protagonist finds the last thing they need to win.' },
      { title: 'Resolution', note: 'The climax and the new state of the world.' },
    ],
  },
];

/** A beat's chapter: titled after the beat, its text opening with the beat note to write from. */
export function beatChapter(template: PlotTemplate, beat: Beat): { title: string; content: string } {
  return { title: beat.title, content: `[${template.name} — ${beat.title}: ${beat.note}]\n\n` };
}

/** Lays out the book: one chapter per beat, after the chapters already there, in order. Offline-safe (mutators). */
export async function layOutBook(mutators: Mutators, bookId: string, template: PlotTemplate): Promise<Chapter[]> {
  const made: Chapter[] = [];
  for (const beat of template.beats) made.push(await mutators.chapters.create({ bookId, ...beatChapter(template, beat) }));
  return made;
}

// ---------------------------------------------------------------------------------------------
// Worksheets: guided questions, each filling one existing field

export type CharacterField = 'appearance' | 'personality' | 'goals' | 'backstory' | 'description';

export const CHARACTER_QUESTIONS: ReadonlyArray<{ field: CharacterField; question: string; hint: string }> = [
  { field: 'appearance', question: 'What does a stranger notice first?', hint: 'Build, clothes, a scar, a way of moving.' },
  { field: 'personality', question: 'How do they behave under pressure?', hint: 'Temper, humour, habits, what they hide.' },
  { field: 'goals', question: 'What do they want — and what do they need?', hint: 'The goal they chase and the truth they must learn.' },
  { field: 'backstory', question: 'What happened before the story that still shapes them?', hint: 'A wound, a debt, a promise.' },
  { field: 'description', question: 'Sum them up in two sentences.', hint: 'How you would pitch them to a reader.' },
];

export type CharacterWorksheet = { name: string; role: NonNullable<CreateCharacterBody['role']>; age: string; occupation: string } & Record<CharacterField, string>;

export function characterFromWorksheet(seriesId: string, sheet: CharacterWorksheet): CreateCharacterBody {
  return {
    seriesId,
    name: sheet.name,
    role: sheet.role,
    age: sheet.age.trim(),
    occupation: sheet.occupation.trim(),
    appearance: sheet.appearance.trim(),
    personality: sheet.personality.trim(),
    goals: sheet.goals.trim(),
    backstory: sheet.backstory.trim(),
    description: sheet.description.trim(),
    isProtagonist: sheet.role === 'protagonist',
  };
}

export const WORLD_QUESTIONS: ReadonlyArray<{ key: string; question: string }> = [
  { key: 'look', question: 'What does it look, sound and smell like?' },
  { key: 'people', question: 'Who lives or works here, and who is not welcome?' },
  { key: 'history', question: 'What happened here before the story began?' },
  { key: 'secret', question: 'What secret or danger does it hold?' },
  { key: 'story', question: 'Why does your story need this place?' },
];

export type WorldWorksheet = { name: string; locationType: NonNullable<CreateLocationBody['locationType']>; importance: NonNullable<CreateLocationBody['importance']> } & Record<string, string>;

/** The location's description is the answered questions, each under its question (unanswered ones left out). */
export function locationFromWorksheet(seriesId: string, sheet: WorldWorksheet): CreateLocationBody {
  const description = WORLD_QUESTIONS.filter((q) => (sheet[q.key] ?? '').trim() !== '')
    .map((q) => `${q.question}\n${sheet[q.key]!.trim()}`)
    .join('\n\n');
  return { seriesId, name: sheet.name, locationType: sheet.locationType, importance: sheet.importance, description };
}

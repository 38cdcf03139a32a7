/**
 * The offline session the flush bench replays: a deterministic, realistic mix of creates and
 * updates of chapters, characters, locations and timeline events, as screens make them through the
 * mutators — and the same changes as the server's repository writes (the baseline's input).
 *
 * Mix per 5,000 outbox entries (scaled with `--mutations`):
 * - chapters 1,500: 300 new chapters (title only, as the editor creates them), each followed a few
 *   steps later by its first text save (1,000 words; a `chained` entry: it needs the create's
 *   answer for its base revision), and 900 saves of existing chapters (their text plus a paragraph);
 * - characters 1,000: 600 new, 400 edited (description, goals);
 * - locations 1,000: 600 new, 400 edited (description, importance);
 * - timeline events 1,500: 1,000 new (referring to chapters, characters and locations — some made
 *   in this same session), 500 edited (title, description, importance).
 * Each existing row is edited once (a second edit would be coalesced into the first entry), so the
 * outbox holds exactly one entry per planned mutation.
 */
import {
  createChapterBodySchema,
  createCharacterBodySchema,
  createLocationBodySchema,
  createTimelineEventBodySchema,
  newId,
  updateChapterBodySchema,
  updateCharacterBodySchema,
  updateLocationBodySchema,
  updateTimelineEventBodySchema,
} from '@chronicler/schema';
import { chapterText, seededRandom } from '../lib/prose.ts';
import type { PlannedMutation } from './page/protocol.ts';
import type { RowWrite } from './repository.ts';
import { type Random, characterValues, eventValues, locationValues, pick, prose, randomRefs } from './story.ts';

export interface ExistingSeries {
  seriesId: string;
  bookIds: string[];
  /** Chapters on the server, with their current text (kept up to date across rounds). */
  chapters: { id: string; bookId: string; content: string }[];
  characterIds: string[];
  locationIds: string[];
  eventIds: string[];
  /** Chapters per book so far (new chapters go after them). */
  chaptersPerBook: Map<string, number>;
}

export const BASE_MIX = {
  newChapters: 300,
  chapterEdits: 900,
  newCharacters: 600,
  characterEdits: 400,
  newLocations: 600,
  locationEdits: 400,
  newEvents: 1_000,
  eventEdits: 500,
} as const;
export type Mix = { -readonly [K in keyof typeof BASE_MIX]: number };

/** The mix for `total` entries (new chapters count twice: the create and its first save). */
export function mixFor(total: number): Mix {
  const scale = total / 5_000;
  const out = {} as Mix;
  for (const [key, n] of Object.entries(BASE_MIX)) out[key as keyof Mix] = Math.max(1, Math.round(n * scale));
  return out;
}

export interface Plan {
  mutations: PlannedMutation[];
  /** The same changes as the server's repository writes them, in the same order. */
  writes: RowWrite[];
  /** Outbox entries per kind of step, for the report. */
  counts: Record<string, number>;
}

type Step =
  | { type: 'newChapter' }
  | { type: 'chapterEdit' }
  | { type: 'newCharacter' }
  | { type: 'characterEdit' }
  | { type: 'newLocation' }
  | { type: 'locationEdit' }
  | { type: 'newEvent' }
  | { type: 'eventEdit' };

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Builds round `round`'s session over `series`, and updates `series` to what it will be after it. */
export function planSession(series: ExistingSeries, mix: Mix, round: number, words: number): Plan {
  const random = seededRandom(1_000 + round);
  const steps: Step[] = [];
  const add = (type: Step['type'], n: number) => {
    for (let i = 0; i < n; i++) steps.push({ type } as Step);
  };
  add('newChapter', mix.newChapters);
  add('chapterEdit', Math.min(mix.chapterEdits, series.chapters.length));
  add('newCharacter', mix.newCharacters);
  add('characterEdit', Math.min(mix.characterEdits, series.characterIds.length));
  add('newLocation', mix.newLocations);
  add('locationEdit', Math.min(mix.locationEdits, series.locationIds.length));
  add('newEvent', mix.newEvents);
  add('eventEdit', Math.min(mix.eventEdits, series.eventIds.length));
  shuffle(random, steps);

  const plan: Plan = { mutations: [], writes: [], counts: {} };
  const count = (key: string) => (plan.counts[key] = (plan.counts[key] ?? 0) + 1);
  const { seriesId } = series;
  const editChapters = shuffle(random, [...series.chapters]).slice(0, mix.chapterEdits);
  const editCharacters = shuffle(random, [...series.characterIds]).slice(0, mix.characterEdits);
  const editLocations = shuffle(random, [...series.locationIds]).slice(0, mix.locationEdits);
  const editEvents = shuffle(random, [...series.eventIds]).slice(0, mix.eventEdits);
  const chapters = [...series.chapters];
  const characterIds = [...series.characterIds];
  const locationIds = [...series.locationIds];
  /** First text saves of new chapters, due after `at` more steps. */
  let pendingSaves: { at: number; id: string; content: string }[] = [];

  const push = (mutation: PlannedMutation, write: RowWrite, key: string) => {
    plan.mutations.push(mutation);
    plan.writes.push(write);
    count(key);
  };
  const saveChapter = (id: string, content: string, key: string) => {
    const body = updateChapterBodySchema.parse({ content });
    const { wordCount: _advisory, ...patch } = body;
    push({ call: 'chapters.update', id, body }, { op: 'update', kind: 'chapters', id, patch }, key);
  };

  steps.forEach((step, i) => {
    switch (step.type) {
      case 'newChapter': {
        const bookId = pick(random, series.bookIds);
        const position = (series.chaptersPerBook.get(bookId) ?? 0) + 1;
        series.chaptersPerBook.set(bookId, position);
        const id = newId();
        const body = { ...createChapterBodySchema.parse({ id, bookId, title: `New chapter ${round}.${i}`, position }), id };
        const { wordCount: _advisory, ...fields } = body;
        push(
          { call: 'chapters.create', body },
          { op: 'insert', kind: 'chapters', values: { ...fields, bookId, seriesId, position, wordCount: 0 } },
          'chapter created',
        );
        const content = chapterText(round * 1_000_000 + i, words);
        chapters.push({ id, bookId, content });
        pendingSaves.push({ at: i + 1 + Math.floor(random() * 40), id, content });
        break;
      }
      case 'chapterEdit': {
        const chapter = editChapters.pop()!;
        chapter.content = `${chapter.content}\n\n${prose(random, 30, 80)}`;
        saveChapter(chapter.id, chapter.content, 'chapter saved');
        break;
      }
      case 'newCharacter': {
        const values = characterValues(random, seriesId, 10_000 * round + i);
        const body = { ...createCharacterBodySchema.parse(values), id: values.id };
        push({ call: 'characters.create', body }, { op: 'insert', kind: 'characters', values: { ...body, seriesId } }, 'character created');
        characterIds.push(values.id);
        break;
      }
      case 'characterEdit': {
        const id = editCharacters.pop()!;
        const body = updateCharacterBodySchema.parse({ description: prose(random, 30, 90), goals: prose(random, 10, 30) });
        push({ call: 'characters.update', id, body }, { op: 'update', kind: 'characters', id, patch: body }, 'character edited');
        break;
      }
      case 'newLocation': {
        const values = locationValues(random, seriesId, 10_000 * round + i);
        const body = { ...createLocationBodySchema.parse(values), id: values.id };
        push({ call: 'locations.create', body }, { op: 'insert', kind: 'locations', values: { ...body, seriesId } }, 'location created');
        locationIds.push(values.id);
        break;
      }
      case 'locationEdit': {
        const id = editLocations.pop()!;
        const body = updateLocationBodySchema.parse({ description: prose(random, 40, 140), importance: pick(random, ['main', 'secondary', 'minor'] as const) });
        push({ call: 'locations.update', id, body }, { op: 'update', kind: 'locations', id, patch: body }, 'location edited');
        break;
      }
      case 'newEvent': {
        const values = eventValues(random, seriesId, 10_000 * round + i, randomRefs(random, chapters, characterIds, locationIds));
        const body = { ...createTimelineEventBodySchema.parse(values), id: values.id };
        push({ call: 'timelineEvents.create', body }, { op: 'insert', kind: 'timelineEvents', values: { ...body, seriesId } }, 'event created');
        break;
      }
      case 'eventEdit': {
        const id = editEvents.pop()!;
        const body = updateTimelineEventBodySchema.parse({
          title: `Revised event ${round}.${i}`,
          description: prose(random, 20, 80),
          importance: pick(random, ['major', 'medium', 'minor'] as const),
        });
        push({ call: 'timelineEvents.update', id, body }, { op: 'update', kind: 'timelineEvents', id, patch: body }, 'event edited');
        break;
      }
    }
    const due = pendingSaves.filter((save) => save.at <= i);
    pendingSaves = pendingSaves.filter((save) => save.at > i);
    for (const save of due) saveChapter(save.id, save.content, 'new chapter first save (chained)');
  });
  for (const save of pendingSaves) saveChapter(save.id, save.content, 'new chapter first save (chained)');

  series.chapters = chapters;
  series.characterIds = characterIds;
  series.locationIds = locationIds;
  return plan;
}

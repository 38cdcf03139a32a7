/**
 * The series bible (characters, relationships, places, the timeline) as a Manuscript: one "book"
 * per section and one "chapter" per entry, so every manuscript renderer (PDF, Markdown) writes it.
 */
import type { Character, CharacterRelationship, Location, Series, TimelineEvent } from './entities.ts';
import { type Manuscript, type ManuscriptBlock, type ManuscriptBook, type ManuscriptChapter, plainParagraph } from './manuscript.ts';
import { byPosition } from './positions.ts';

export interface BibleInput {
  series: Pick<Series, 'title' | 'description'>;
  author: string;
  characters: readonly Character[];
  relationships: readonly CharacterRelationship[];
  locations: readonly Location[];
  events: readonly TimelineEvent[];
}

const label = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

function entry(id: string, title: string, fields: ReadonlyArray<[string, string]>): ManuscriptChapter {
  const blocks: ManuscriptBlock[] = [];
  for (const [name, value] of fields) {
    // Every line an author typed is kept; multi-line fields become several paragraphs.
    const lines = value.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== '');
    lines.forEach((line, i) => blocks.push(plainParagraph(i === 0 && name ? `${name}: ${line}` : line, blocks.length === 0)));
  }
  return { id, title, blocks, wordCount: 0 };
}

const books = (nums: readonly number[]) => (nums.length ? nums.map((n) => `Book ${n}`).join(', ') : '');

export function buildSeriesBible(input: BibleInput): Manuscript {
  const live = <T extends { deletedAt: string | null }>(rows: readonly T[]) => rows.filter((r) => r.deletedAt === null);
  const characters = live(input.characters).sort((a, b) => a.name.localeCompare(b.name));
  const names = new Map(characters.map((c) => [c.id, c.name]));
  const places = live(input.locations).sort((a, b) => a.name.localeCompare(b.name));
  const placeNames = new Map(places.map((l) => [l.id, l.name]));
  const sections: ManuscriptBook[] = [
    {
      id: 'characters',
      title: 'Characters',
      chapters: characters.map((c) =>
        entry(c.id, c.name, [
          ['Role', label(c.role)], ['Status', label(c.status)], ['Age', c.age], ['Occupation', c.occupation],
          ['Appears in', books(c.bookAppearances)], ['Description', c.description], ['Appearance', c.appearance],
          ['Personality', c.personality], ['Goals', c.goals], ['Backstory', c.backstory],
        ]),
      ),
    },
    {
      id: 'relationships',
      title: 'Relationships',
      chapters: live(input.relationships)
        .filter((r) => names.has(r.sourceCharacterId) && names.has(r.targetCharacterId))
        .map((r) =>
          entry(r.id, `${names.get(r.sourceCharacterId)} and ${names.get(r.targetCharacterId)}`, [
            ['Type', label(r.relationshipType)], ['Description', r.description],
          ]),
        ),
    },
    {
      id: 'places',
      title: 'Places',
      chapters: places.map((l) =>
        entry(l.id, l.name, [['Type', label(l.locationType)], ['Importance', label(l.importance)], ['Appears in', books(l.bookAppearances)], ['Description', l.description]]),
      ),
    },
    {
      id: 'timeline',
      title: 'Timeline',
      chapters: live(input.events).sort(byPosition).map((e) =>
        entry(e.id, e.title, [
          ['Date', e.date], ['Type', label(e.eventType)], ['Importance', label(e.importance)],
          ['Place', e.locationId ? (placeNames.get(e.locationId) ?? '') : ''],
          ['Characters', e.characterIds.flatMap((id) => names.get(id) ?? []).join(', ')],
          ['Description', e.description],
        ]),
      ),
    },
  ];
  return {
    title: `${input.series.title} — Series Bible`,
    author: input.author,
    description: input.series.description || `The series bible of ${input.series.title}`,
    books: sections.filter((s) => s.chapters.length > 0),
    wordCount: 0,
  };
}

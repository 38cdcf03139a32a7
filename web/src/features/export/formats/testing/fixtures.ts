/** A two-book series with the texts exports get wrong: first paragraphs, curly quotes, dashes, scene breaks. */
import type { Book, Chapter, Character, CharacterRelationship, Location, Series, TimelineEvent } from '@chronicler/schema';

const at = '2026-01-01T00:00:00.000Z';
const row = { rev: 1, createdAt: at, updatedAt: at, deletedAt: null };
export const SERIES_ID = '01930000-0000-7000-8000-000000000001';

export const series: Series = { ...row, id: SERIES_ID, ownerId: '01930000-0000-7000-8000-0000000000aa', title: 'The Glass Kingdoms', description: 'Two sisters and a broken crown.', totalBooks: 2, currentBook: 1, coverImage: null };

export const books: Book[] = [
  { ...row, id: '01930000-0000-7000-8000-0000000000b2', seriesId: SERIES_ID, title: 'The Iron Tide', description: '', position: 2, status: 'in_progress', wordCount: 0 },
  { ...row, id: '01930000-0000-7000-8000-0000000000b1', seriesId: SERIES_ID, title: 'The Salt Crown', description: '', position: 1, status: 'in_progress', wordCount: 0 },
];

function chapter(n: number, bookId: string, position: number, title: string, content: string): Chapter {
  const id = `01930000-0000-7000-8000-0000000000c${n}`;
  return { ...row, id, seriesId: SERIES_ID, bookId, title, content, position, wordCount: content.split(/\s+/).filter(Boolean).length, status: 'draft' };
}

export const chapters: Chapter[] = [
  chapter(2, books[1]!.id, 2, 'The Harbour', 'Gulls wheeled over the harbour — a white storm.\n\n“Not yet,” Mara whispered.\n\n* * *\n\nMorning came grey and cold.'),
  chapter(1, books[1]!.id, 1, 'Salt and Ash', 'The first paragraph always survives the export.\n“Where’s the crown?” asked Ilse — too late.\nShe didn’t answer; the sea did…'),
  chapter(3, books[0]!.id, 1, 'Iron Rising', 'Book two opens here, with a first paragraph of its own.\nThe tide turned – and kept turning.'),
];

export const characters: Character[] = [
  { ...row, id: '01930000-0000-7000-8000-0000000000d1', seriesId: SERIES_ID, name: 'Mara Vell', role: 'protagonist', age: '19', occupation: 'Smuggler', status: 'alive', description: 'Quick, proud, kind.', appearance: '', personality: '', goals: 'Free her sister.', backstory: '', bookAppearances: [1, 2], isProtagonist: true, avatar: null, avatarUrl: null, aliases: [], alwaysInclude: false },
  { ...row, id: '01930000-0000-7000-8000-0000000000d2', seriesId: SERIES_ID, name: 'Ilse Vell', role: 'supporting', age: '23', occupation: 'Heir', status: 'unknown', description: 'The elder sister.', appearance: '', personality: '', goals: '', backstory: '', bookAppearances: [1], isProtagonist: false, avatar: null, avatarUrl: null, aliases: [], alwaysInclude: false },
];
export const relationships: CharacterRelationship[] = [
  { ...row, id: '01930000-0000-7000-8000-0000000000e1', seriesId: SERIES_ID, sourceCharacterId: characters[0]!.id, targetCharacterId: characters[1]!.id, relationshipType: 'family', description: 'Sisters.' },
];
export const locations: Location[] = [
  { ...row, id: '01930000-0000-7000-8000-0000000000f1', seriesId: SERIES_ID, name: 'Saltmere', locationType: 'city', description: 'A harbour city.', importance: 'main', bookAppearances: [1], image: null, alwaysInclude: false, parentId: null },
];
export const events: TimelineEvent[] = [
  { ...row, id: '01930000-0000-7000-8000-000000000101', seriesId: SERIES_ID, title: 'The crown breaks', description: 'Everything starts.', eventType: 'plot', date: 'Year 1', bookId: null, chapterId: null, characterIds: [characters[0]!.id], locationId: locations[0]!.id, importance: 'major', color: '#6366f1', position: 1, isPlotPoint: true },
];

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AI_SUGGESTION_TYPES } from '@chronicler/schema';
import { type SeriesMaterial } from './material.ts';
import { seriesBible } from './bible.ts';
import { SAMPLE_SUGGESTIONS, pickSuggestion, seriesFindings, suggest } from './suggestions.ts';

let n = 0;
const uid = () => `00000000-0000-7000-8000-${String(++n).padStart(12, '0')}`;

function fixture() {
  const b1 = { id: uid(), title: 'The Salt Road', position: 1 };
  const b2 = { id: uid(), title: 'The Iron Tide', position: 2 };
  const character = (name: string, extra: Partial<SeriesMaterial['characters'][number]> = {}) => ({
    id: uid(), name, role: 'supporting' as const, status: 'alive' as const, isProtagonist: false, bookAppearances: [] as number[], goals: '', description: '', ...extra,
  });
  const mara = character('Mara Vell', { role: 'protagonist', goals: 'find her brother', bookAppearances: [1, 2] });
  const kest = character('Kest Arun', { role: 'antagonist', bookAppearances: [1] });
  const old = character('Old Tobin', { status: 'deceased', bookAppearances: [1] });
  const late = character('Sable Quint', { bookAppearances: [2], description: 'a spy from the north' });
  const chapter = (bookId: string, position: number, content: string) => ({ id: uid(), bookId, title: `Chapter ${position}`, position, content });
  const chapters = [
    chapter(b1.id, 1, 'Mara Vell walked the salt road with Old Tobin.'),
    chapter(b1.id, 2, 'Kest Arun counted his coins in the tower.'),
    chapter(b1.id, 3, 'The tide came in. Kest waited.'),
    chapter(b1.id, 4, 'Nobody slept in the harbour.'),
    chapter(b1.id, 5, 'The gulls returned at dawn.'),
    chapter(b2.id, 1, 'Sable Quint arrived. Old Tobin was there, laughing.'),
  ];
  const harbour = { id: uid(), name: 'Greyharbour', locationType: 'town' as const, importance: 'main' as const, bookAppearances: [1], description: '' };
  const marsh = { id: uid(), name: 'Weeping Marsh', locationType: 'other' as const, importance: 'minor' as const, bookAppearances: [1], description: '' };
  const northKeep = { id: uid(), name: 'North Keep', locationType: 'castle' as const, importance: 'minor' as const, bookAppearances: [2], description: '' };
  const event = (title: string, extra: Partial<SeriesMaterial['events'][number]> = {}) => ({
    id: uid(), title, bookId: b1.id, chapterId: null, characterIds: [] as string[], locationId: null, importance: 'medium' as const, position: 0, description: '', ...extra,
  });
  const material: SeriesMaterial = {
    seriesTitle: 'Tides of Salt',
    books: [b2, b1],
    chapters,
    characters: [mara, kest, old, late],
    relationships: [
      { id: uid(), sourceCharacterId: mara.id, targetCharacterId: kest.id, relationshipType: 'enemy', description: '' },
      { id: uid(), sourceCharacterId: mara.id, targetCharacterId: late.id, relationshipType: 'ally', description: '' },
    ],
    locations: [harbour, marsh, northKeep],
    events: [
      event('The storm', { chapterId: chapters[1]!.id, locationId: harbour.id, characterIds: [kest.id] }),
      event('Mara finds the map', { importance: 'major', characterIds: [mara.id] }),
      event('The spy lands', { bookId: b2.id, characterIds: [late.id] }),
    ],
  };
  return { material, b1, b2, mara, kest, old, late, marsh, northKeep };
}

describe('suggestion rules', () => {
  it('names a main character absent from the last chapters', () => {
    const { material, mara } = fixture();
    const s = suggest(material, { type: 'characterDevelopment' });
    expect(s.content).toContain('Mara Vell has not appeared in the last 3 chapters');
    expect(s.content).toContain('find her brother');
    expect(s.entityIds).toEqual([mara.id]);
  });

  it('names enemies who never share a timeline event', () => {
    const { material, mara, kest } = fixture();
    const s = suggest(material, { type: 'conflict' });
    expect(s.content).toMatch(/^Mara Vell and Kest Arun are enemies but never share a timeline event\. Stage a confrontation at Greyharbour/);
    expect(s.entityIds.slice(0, 2)).toEqual([mara.id, kest.id]);
  });

  it('names a relationship with no scene, and an unused location', () => {
    const { material } = fixture();
    expect(suggest(material, { type: 'dialogue' }).content).toMatch(/^Mara Vell and Kest Arun \(enemy\) never share a scene/);
    expect(suggest(material, { type: 'worldBuilding' }).content).toMatch(/^Weeping Marsh \(other\) is never used/);
  });

  it('finds an event with no chapter (major first) and a timeline gap', () => {
    const { material } = fixture();
    const plot = seriesFindings(material).plotIdea.map((d) => d.content);
    expect(plot[0]).toMatch(/^The event "Mara finds the map" in The Salt Road has no chapter yet/);
    expect(plot).toContain('The timeline of The Salt Road has a gap: 3 chapters from "Chapter 3" to "Chapter 5" have no event. What happens there that changes the story?');
  });

  it('consistency: a deceased character who appears in a later book', () => {
    const { material, old } = fixture();
    const s = suggest(material, { type: 'consistency' });
    expect(s.content).toBe('Old Tobin is marked deceased (last in book 1) but appears in the chapter "Chapter 1" of The Iron Tide. A flashback, a ghost, or a continuity slip?');
    expect(s.entityIds).toEqual([old.id]);
  });

  it('is spoiler safe: with book 1 chosen nothing from book 2 is used', () => {
    const { material, b1 } = fixture();
    const findings = seriesFindings(material, b1.id);
    const all = AI_SUGGESTION_TYPES.flatMap((t) => findings[t]).map((d) => d.content).join('\n');
    for (const later of ['Sable Quint', 'North Keep', 'The Iron Tide', 'The spy lands']) expect(all).not.toContain(later);
    // The death of Old Tobin is not contradicted by anything a reader of book 1 has seen.
    expect(seriesFindings(material, b1.id).consistency).toEqual([]);
    const bible = seriesBible(material, { bookId: b1.id, text: 'Sable Quint met Mara at North Keep.' });
    expect(bible).not.toContain('Sable');
    expect(bible).not.toContain('North Keep');
    expect(bible).toContain('Character: Mara Vell');
  });

  it('does not repeat a suggestion while something new remains, and always names real entities', () => {
    const { material } = fixture();
    const seen: string[] = [];
    // Two unused locations, then one prompt per location.
    for (let i = 0; i < 5; i++) seen.push(suggest(material, { type: 'worldBuilding', previous: seen }).content);
    expect(new Set(seen).size).toBe(5);
    expect(seen.every((c) => /Greyharbour|Weeping Marsh|North Keep/.test(c))).toBe(true);
  });

  it('picks the type the series needs most when none is asked for', () => {
    const { material } = fixture();
    expect(suggest(material).type).toBe('plotIdea');
  });

  it('works on an empty series', () => {
    const s = suggest({ seriesTitle: 'Empty', books: [], chapters: [], characters: [], relationships: [], locations: [], events: [] }, { type: 'dialogue' });
    expect(s.content.length).toBeGreaterThan(20);
    expect(SAMPLE_SUGGESTIONS).toHaveLength(2);
  });
});

describe('series bible: world entries (docs/decisions/0020-world-entries.md)', () => {
  const entry = (name: string, extra: Partial<NonNullable<SeriesMaterial['worldEntries']>[number]> = {}) => ({
    id: uid(), category: 'culture' as const, name, summary: '', bookAppearances: [] as number[],
    characterIds: [] as string[], locationIds: [] as string[], entryIds: [] as string[], leaderId: null, allyIds: [] as string[], enemyIds: [] as string[], ...extra,
  });

  it('gives an entry the text names, with its links by name; never one or a link from a later book', () => {
    const { material, b1, b2, mara, late, marsh } = fixture();
    const spies = entry('Northern Spies', { category: 'politics', bookAppearances: [2] });
    const guild = entry('Salt Guild', { category: 'politics', summary: 'Merchants of the road', leaderId: mara.id, characterIds: [late.id], allyIds: [spies.id], locationIds: [marsh.id] });
    const withWorld: SeriesMaterial = { ...material, worldEntries: [guild, spies, entry('Marsh folk')] };
    const text = 'The Salt Guild met the Northern Spies.';
    expect(seriesBible(withWorld, { bookId: b2.id, text })).toContain('Faction: Salt Guild (led by Mara Vell; allies: Northern Spies; linked: Sable Quint, Weeping Marsh) — Merchants of the road');
    const early = seriesBible(withWorld, { bookId: b1.id, text });
    expect(early).toContain('Faction: Salt Guild (led by Mara Vell; linked: Weeping Marsh)');
    expect(early).not.toContain('Northern Spies');
    expect(early).not.toContain('Sable');
    expect(early).not.toContain('Marsh folk');
  });
});

describe('series bible', () => {
  it('includes mentioned entries, the chosen book’s POV characters and main entries, within its bounds', () => {
    const { material, b2 } = fixture();
    const bible = seriesBible(material, { bookId: b2.id, text: 'Kest watched Sable from the marsh. Weeping Marsh was silent.' });
    const lines = bible.split('\n');
    expect(lines[0]).toBe('Series: Tides of Salt. Books so far: The Salt Road; The Iron Tide.');
    expect(bible).toContain('Character: Kest Arun');
    expect(bible).toContain('Character: Sable Quint');
    expect(bible).toContain('Character: Mara Vell (protagonist, wants: find her brother)');
    expect(bible).toContain('Location: Weeping Marsh');
    expect(bible).toContain('Location: Greyharbour');
    expect(bible).not.toContain('Old Tobin');
  });

  it('picks a character named by an alias, case-insensitive and as whole words only', () => {
    const { material, b2, kest } = fixture();
    const withAliases: SeriesMaterial = {
      ...material,
      characters: material.characters.map((c) => (c.id === kest.id ? { ...c, aliases: ['the Grey Hand', 'Warden'] } : c)),
    };
    const bible = seriesBible(withAliases, { bookId: b2.id, text: 'Nobody crossed THE GREY HAND and lived.' });
    expect(bible).toContain('Character: Kest Arun, also called the Grey Hand, Warden (antagonist)');
    // "Wardens" is another word; the words of "the Grey Hand" must stand together, in order, as words.
    const cases: Array<[string, boolean]> = [
      ['The Wardens marched.', false],
      ['Grey skies, and the hand of fate.', false],
      ['Bathe grey handles; the grey hand.', true],
      ['bathe grey handle the hand grey', false],
      ['She met the grey\nhand at dawn.', true],
      ['Ask the warden.', true],
      ['The Grey Hand’s ring.', true],
      ['Kest’s ring.', true],
    ];
    for (const [text, expected] of cases) expect(seriesBible(withAliases, { bookId: b2.id, text }).includes('Kest Arun'), text).toBe(expected);
  });

  it('always includes the characters the author marked, but never one first appearing after the chosen book', () => {
    const { material, b1, b2, old, late } = fixture();
    const marked: SeriesMaterial = {
      ...material,
      characters: material.characters.map((c) => (c.id === old.id || c.id === late.id ? { ...c, alwaysInclude: true, aliases: ['the Spy'] } : c)),
    };
    const text = 'The harbour was quiet.';
    expect(seriesBible(material, { bookId: b2.id, text })).not.toContain('Old Tobin');
    expect(seriesBible(marked, { bookId: b2.id, text })).toContain('Character: Old Tobin');
    expect(seriesBible(marked, { bookId: b2.id, text })).toContain('Character: Sable Quint');
    // Sable Quint first appears in book 2: with book 1 chosen, neither the flag nor an alias in the text brings them in.
    const early = seriesBible(marked, { bookId: b1.id, text: 'the Spy watched the harbour' });
    expect(early).toContain('Character: Old Tobin');
    expect(early).not.toContain('Sable');
  });

  it('always includes the locations the author marked, as it does main ones, but never one first appearing after the chosen book', () => {
    const { material, b1, b2, marsh, northKeep } = fixture();
    const text = 'The tide came in.';
    // Unmarked: only the main location (Greyharbour), as before the mark existed.
    const plain = seriesBible(material, { bookId: b2.id, text });
    expect(plain).toContain('Location: Greyharbour');
    expect(plain).not.toContain('Weeping Marsh');
    expect(plain).not.toContain('North Keep');
    const marked: SeriesMaterial = {
      ...material,
      locations: material.locations.map((l) => (l.id === marsh.id || l.id === northKeep.id ? { ...l, alwaysInclude: true } : l)),
    };
    const later = seriesBible(marked, { bookId: b2.id, text });
    expect(later).toContain('Location: Weeping Marsh (other)');
    expect(later).toContain('Location: North Keep (castle)');
    expect(later).toContain('Location: Greyharbour');
    // North Keep first appears in book 2: with book 1 chosen, the mark does not bring it in.
    const early = seriesBible(marked, { bookId: b1.id, text });
    expect(early).toContain('Location: Weeping Marsh');
    expect(early).not.toContain('North Keep');
  });
});

describe('suggestion rules and aliases', () => {
  it('counts a chapter that calls a main character by an alias as an appearance', () => {
    const { material, mara } = fixture();
    const aliased: SeriesMaterial = {
      ...material,
      characters: material.characters.map((c) => (c.id === mara.id ? { ...c, aliases: ['the Salt Girl'] } : c)),
      chapters: [...material.chapters.slice(0, 4), { ...material.chapters[4]!, content: 'The gulls found the salt girl at dawn.' }, material.chapters[5]!],
    };
    expect(suggest(material, { type: 'characterDevelopment' }).content).toContain('Mara Vell has not appeared');
    expect(suggest(aliased, { type: 'characterDevelopment' }).content).not.toContain('has not appeared');
  });
});

describe('picking among earlier suggestions', () => {
  it('picks what a fresh look would, when the earlier suggestions are kept in one growing set (the server’s way)', () => {
    const { material, b1 } = fixture();
    const copy: SeriesMaterial = structuredClone(material);
    const typeOrNone = fc.option(fc.constantFrom(...AI_SUGGESTION_TYPES), { nil: undefined });
    const step = fc.record({ type: typeOrNone, book: fc.boolean(), reload: fc.constantFrom('none', 'none', 'none', 'same', 'deleted') });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 150 }), (steps) => {
        // The kept findings and set, as CompanionCache keeps them: the same objects across picks.
        const kept = { all: seriesFindings(material, null), early: seriesFindings(material, b1.id) };
        let previous = new Set<string>();
        for (const { type, book, reload } of steps) {
          // Another writer changed the suggestions (deleted some, or not): the set is read again, a new object.
          if (reload === 'same') previous = new Set(previous);
          if (reload === 'deleted') previous = new Set([...previous].filter((_, i) => i % 3 !== 0));
          const picked = pickSuggestion(book ? kept.early : kept.all, { type, previous });
          // From scratch: findings of a copy of the series and a new set, nothing remembered.
          const fresh = seriesFindings(copy, book ? b1.id : null);
          expect(picked).toEqual(pickSuggestion(fresh, { type, previous: [...previous] }));
          previous.add(picked.content);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('offers a prompt again once it was deleted, after every prompt of its type had been used', () => {
    const { material } = fixture();
    const findings = seriesFindings(material, null);
    const previous = new Set<string>();
    const used: string[] = [];
    // Until the type repeats itself: every finding and every prompt of it used.
    for (;;) {
      const picked = pickSuggestion(findings, { type: 'plotIdea', previous });
      if (previous.has(picked.content)) break;
      previous.add(picked.content);
      used.push(picked.content);
    }
    expect(used.length).toBeGreaterThan(2);
    // Another writer deleted one of them: the set is read again (a new one), and the deleted one
    // is the only new suggestion left — whichever it is.
    for (const deleted of used) {
      const reread = new Set(used.filter((content) => content !== deleted));
      expect(pickSuggestion(findings, { type: 'plotIdea', previous: reread }).content).toBe(deleted);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { brokenSeries, cleanSeries } from '../../testing/continuity-series.ts';
import type { CanonSeriesBuilder } from '../../testing/canon-series.ts';
import { canonTimeline } from '../resolve.ts';
import { storyOrder } from '../story-order.ts';
import { absentCharacterFindings } from './absent-characters.ts';

function check(s: CanonSeriesBuilder, excludedWords: string[] = []) {
  const order = storyOrder(s.books, s.chapters);
  return absentCharacterFindings({ order, timeline: canonTimeline(order, s.changes), chapters: s.chapters, characters: s.characters, events: s.events, excludedWords });
}
const byTitle = (s: CanonSeriesBuilder, title: string) => s.chapters.find((c) => c.title === title)!;
const named = (s: CanonSeriesBuilder, name: string) => s.characters.find((c) => c.name === name)!;

describe('a deceased or missing character named later', () => {
  it('finds exactly what is wrong in the broken series, with the evidence on both sides', () => {
    const s = brokenSeries();
    const [death, disappearance] = s.changes;
    const mara = named(s, 'Mara');
    const tomas = named(s, 'Tomas');
    expect(check(s)).toEqual([
      {
        rule: 'named-after-death', severity: 'warning', message: 'Mara is named in “Return” after dying in “The Siege”', entityId: mara.id, change: death,
        evidence: { kind: 'chapter', chapterId: byTitle(s, 'Return').id, paragraph: 1, offset: 0, name: 'Mara', occurrences: 2 },
      },
      {
        rule: 'named-while-missing', severity: 'note', message: 'Tomas is named in “Council” while missing since “Aftermath”', entityId: tomas.id, change: disappearance,
        evidence: { kind: 'chapter', chapterId: byTitle(s, 'Council').id, paragraph: 0, offset: 0, name: 'Tomas', occurrences: 1 },
      },
      {
        rule: 'in-event-while-missing', severity: 'warning', message: 'Tomas takes part in “Tomas is seen in the market” while missing since “Aftermath”', entityId: tomas.id,
        change: disappearance, evidence: { kind: 'event', eventId: s.events[2]!.id },
      },
      {
        rule: 'in-event-after-death', severity: 'error', message: 'Mara takes part in “The feast” after dying in “The Siege”', entityId: mara.id, change: death,
        evidence: { kind: 'event', eventId: s.events[1]!.id },
      },
    ]);
  });

  it('finds a name by an alias, and nothing once the author marks the chapter a flashback', () => {
    const s = brokenSeries();
    byTitle(s, 'Return').content = 'The Grey Lady smiles.';
    expect(check(s).filter((f) => f.rule === 'named-after-death').map((f) => f.evidence)).toEqual([
      { kind: 'chapter', chapterId: byTitle(s, 'Return').id, paragraph: 0, offset: 0, name: 'The Grey Lady', occurrences: 1 },
    ]);
    byTitle(s, 'Return').flashback = true;
    s.events[1]!.flashback = true;
    expect(check(s).filter((f) => f.entityId === named(s, 'Mara').id)).toEqual([]);
  });

  it('finds nothing in the clean series', () => {
    const { series, excludedWords } = cleanSeries();
    expect(check(series, excludedWords)).toEqual([]);
  });

  it('would find the excluded word if the author had not excluded it (so the clean series tests the exclusion)', () => {
    const { series } = cleanSeries();
    expect(check(series).map((f) => [f.message, f.evidence.kind === 'chapter' ? f.evidence.occurrences : 0])).toEqual([['Will is named in “Return” after dying in “The Siege”', 1]]);
  });

  it('answers nothing for a series with no deaths or disappearances, without reading the text', () => {
    const s = brokenSeries();
    s.changes.length = 0;
    expect(check(s)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { brokenSeries, cleanSeries } from '../../testing/continuity-series.ts';
import type { CanonSeriesBuilder } from '../../testing/canon-series.ts';
import { canonTimeline } from '../resolve.ts';
import { storyOrder } from '../story-order.ts';
import { absentCharacterFindings } from './absent-characters.ts';
import { changeFindings } from './changes.ts';

function check(s: CanonSeriesBuilder, excludedWords: string[] = []) {
  const order = storyOrder(s.books, s.chapters);
  const timeline = canonTimeline(order, s.changes);
  const entityNames = new Map([...s.characters, ...s.locations].map((e) => [e.id, e.name]));
  return [
    ...absentCharacterFindings({ order, timeline, chapters: s.chapters, characters: s.characters, events: s.events, excludedWords }),
    ...changeFindings({ order, timeline, chapters: s.chapters, entityNames }),
  ];
}

describe('findings about the canon changes themselves', () => {
  it('finds the contradiction, the repeat and the lost chapter in the broken series, exactly', () => {
    const s = brokenSeries();
    const [, , guild, crown, destroyed, again, lost] = s.changes;
    const order = storyOrder(s.books, s.chapters);
    const findings = changeFindings({ order, timeline: canonTimeline(order, s.changes), chapters: s.chapters, entityNames: new Map([...s.characters, ...s.locations].map((e) => [e.id, e.name])) });
    expect(findings).toEqual([
      {
        rule: 'contradictory-changes', severity: 'error', message: 'Ilse’s affiliation is recorded as The Salt Guild and The Crown in “Return”',
        entityId: guild!.entityId, change: crown, evidence: { kind: 'change', changeId: guild!.id },
      },
      {
        rule: 'repeated-change', severity: 'note', message: 'Vell’s state is recorded as destroyed again in “Council”, as already in “Aftermath”',
        entityId: destroyed!.entityId, change: again, evidence: { kind: 'change', changeId: destroyed!.id },
      },
      {
        rule: 'unanchored-change', severity: 'warning', message: 'Ilse’s status change to deceased has lost its chapter: it applies nowhere until it is anchored again',
        entityId: lost!.entityId, change: lost, evidence: { kind: 'none' },
      },
    ]);
  });

  it('leave the broken series’ absent-character findings as they are (the lost death is not applied)', () => {
    expect(check(brokenSeries()).map((f) => f.rule)).toEqual([
      'named-after-death', 'named-while-missing', 'in-event-while-missing', 'in-event-after-death',
      'contradictory-changes', 'repeated-change', 'unanchored-change',
    ]);
  });

  it('find nothing at all in the clean series', () => {
    const { series, excludedWords } = cleanSeries();
    expect(check(series, excludedWords)).toEqual([]);
  });
});

/**
 * Continuity findings about the canon changes themselves (docs/decisions/0017-canon-changes.md):
 * two values of one field at the same chapter (an error: which is true?), a change recorded again to
 * the value it already had (a note), and a change whose chapter is gone (a warning: it no longer
 * applies anywhere until it is anchored again).
 */
import type { Chapter } from '../../entities.ts';
import type { CanonTimeline } from '../resolve.ts';
import type { StoryOrder } from '../story-order.ts';
import { CANON_FIELD_LABELS, type CanonChange } from '../wire.ts';
import type { ContinuityFinding } from './findings.ts';

export interface ChangeCheckInput {
  readonly order: StoryOrder;
  readonly timeline: CanonTimeline;
  readonly chapters: readonly Pick<Chapter, 'id' | 'title'>[];
  /** Each character's, place's and relationship's name, by id. */
  readonly entityNames: ReadonlyMap<string, string>;
}

const shown = (change: CanonChange) => (change.field === 'whereabouts' ? change.value || 'a place' : change.value);

export function changeFindings(input: ChangeCheckInput): ContinuityFinding[] {
  const titles = new Map(input.chapters.map((c) => [c.id, c.title]));
  const whose = (change: CanonChange) => `${input.entityNames.get(change.entityId) ?? 'Someone'}’s ${(CANON_FIELD_LABELS[change.field] ?? change.field).toLowerCase()}`;
  const findings: ContinuityFinding[] = [];
  const contradicted = new Set<string>();

  for (const contradiction of input.timeline.contradictions) {
    const holding = contradiction.changes.at(-1)!;
    contradiction.changes.forEach((c) => contradicted.add(c.id));
    const values = [...new Set(contradiction.changes.map(shown))].join(' and ');
    findings.push({
      rule: 'contradictory-changes',
      severity: 'error',
      message: `${whose(holding)} is recorded as ${values} in “${titles.get(contradiction.chapterId) ?? ''}”`,
      entityId: contradiction.entityId,
      change: holding,
      evidence: { kind: 'change', changeId: contradiction.changes[0]!.id },
    });
  }

  for (const [entityId, placed] of input.timeline.byEntity) {
    const last = new Map<string, CanonChange>();
    for (const { change } of placed) {
      if (change.field === 'alias') continue;
      const before = last.get(change.field);
      last.set(change.field, change);
      if (!before || contradicted.has(change.id) || before.value !== change.value || (before.locationId ?? null) !== (change.locationId ?? null)) continue;
      findings.push({
        rule: 'repeated-change',
        severity: 'note',
        message: `${whose(change)} is recorded as ${shown(change)} again in “${titles.get(change.chapterId!) ?? ''}”, as already in “${titles.get(before.chapterId!) ?? ''}”`,
        entityId,
        change,
        evidence: { kind: 'change', changeId: before.id },
      });
    }
  }

  for (const change of input.timeline.unanchored) {
    findings.push({
      rule: 'unanchored-change',
      severity: 'warning',
      message: `${whose(change)} change to ${shown(change)} has lost its chapter: it applies nowhere until it is anchored again`,
      entityId: change.entityId,
      change,
      evidence: { kind: 'none' },
    });
  }
  return findings;
}

/**
 * What a continuity check answers (docs/decisions/0017-canon-changes.md): a finding with its
 * severity, one line for the author, and the evidence on both sides — the change that made a fact
 * true, and where the story contradicts it.
 */
import type { CanonChange } from '../wire.ts';

export type FindingSeverity = 'error' | 'warning' | 'note';

/** Where a finding is contradicted: a chapter's paragraph, a timeline event, another change. */
export type FindingEvidence =
  | { kind: 'chapter'; chapterId: string; paragraph: number; offset: number; name: string; occurrences: number }
  | { kind: 'event'; eventId: string }
  /** Another change: the one a change repeats or contradicts. */
  | { kind: 'change'; changeId: string }
  /** The change itself is the problem (it lost its chapter). */
  | { kind: 'none' };

export interface ContinuityFinding {
  readonly rule:
    | 'named-after-death'
    | 'named-while-missing'
    | 'in-event-after-death'
    | 'in-event-while-missing'
    | 'contradictory-changes'
    | 'repeated-change'
    | 'unanchored-change';
  readonly severity: FindingSeverity;
  /** One line, for the author. */
  readonly message: string;
  /** The character, place or relationship the finding is about. */
  readonly entityId: string;
  /** The change that made it true (the death, the disappearance), or the change at fault. */
  readonly change: CanonChange;
  readonly evidence: FindingEvidence;
}

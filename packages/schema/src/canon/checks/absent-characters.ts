/**
 * The first continuity rule (docs/decisions/0017-canon-changes.md): a character recorded deceased
 * or missing who is named in a later chapter's text, or takes part in a later event. Not counted:
 * the chapter of the death itself, chapters and events marked as a flashback, chapters after the
 * character is recorded alive again, changes that are unanchored, names shared by two characters
 * (which of them is meant cannot be told), words the author excluded. False positives are defects:
 * each chapter gives at most one finding per character, with its first occurrence as evidence.
 */
import type { Chapter, Character, TimelineEvent } from '../../entities.ts';
import type { CanonTimeline } from '../resolve.ts';
import type { StoryOrder } from '../story-order.ts';
import type { CanonChange } from '../wire.ts';
import type { ContinuityFinding } from './findings.ts';
import { nameMatcher } from './names.ts';

export interface AbsentCharacterInput {
  readonly order: StoryOrder;
  readonly timeline: CanonTimeline;
  readonly chapters: readonly Pick<Chapter, 'id' | 'title' | 'content' | 'flashback'>[];
  readonly characters: readonly Pick<Character, 'id' | 'name' | 'aliases' | 'deletedAt'>[];
  readonly events: readonly Pick<TimelineEvent, 'id' | 'title' | 'chapterId' | 'characterIds' | 'flashback' | 'deletedAt'>[];
  /** Words never matched as names (the author's exclusions: "Will", "Hope"). */
  readonly excludedWords?: readonly string[];
}

/** Chapters strictly after `from` and before `to` (the next status change), absent as `status`. */
interface Absence {
  readonly from: number;
  readonly to: number;
  readonly status: 'deceased' | 'missing';
  readonly change: CanonChange;
}

/** Each character's absences: between an absent status change and the next status change. */
function absencesOf(timeline: CanonTimeline, characterId: string): Absence[] {
  const statuses = (timeline.byEntity.get(characterId) ?? []).filter((placed) => placed.change.field === 'status');
  // At one chapter the last recorded holds (the resolver's rule for contradictions).
  const effective = statuses.filter((placed, i) => statuses[i + 1]?.index !== placed.index);
  const out: Absence[] = [];
  effective.forEach((placed, i) => {
    const status = placed.change.value;
    if (status !== 'deceased' && status !== 'missing') return;
    const to = effective[i + 1]?.index ?? Number.POSITIVE_INFINITY;
    if (to > placed.index + 1) out.push({ from: placed.index, to, status, change: placed.change });
  });
  return out;
}

const absenceAt = (absences: readonly Absence[], index: number) => absences.find((a) => index > a.from && index < a.to);

export function absentCharacterFindings(input: AbsentCharacterInput): ContinuityFinding[] {
  const { order, timeline } = input;
  const chapterTitles = new Map(input.chapters.map((c) => [c.id, c.title]));
  const titleAt = (index: number) => chapterTitles.get(order.chapterIds[index]!) ?? '';
  const absences = new Map<string, Absence[]>();
  const characters = input.characters.filter((c) => c.deletedAt === null);
  for (const character of characters) {
    const list = absencesOf(timeline, character.id);
    if (list.length > 0) absences.set(character.id, list);
  }
  if (absences.size === 0) return [];

  // Every name of the series, so a name two characters share is known to be ambiguous.
  const owners = new Map<string, Set<string>>();
  const own = (name: string, id: string) => {
    const key = name.trim();
    if (key === '') return;
    if (!owners.has(key)) owners.set(key, new Set());
    owners.get(key)!.add(id);
  };
  for (const character of characters) [character.name, ...(character.aliases ?? [])].forEach((name) => own(name, character.id));
  for (const placed of timeline.anchored) {
    if (placed.change.entityKind === 'character' && (placed.change.field === 'name' || placed.change.field === 'alias')) own(placed.change.value, placed.change.entityId);
  }
  const nameOwner = new Map<string, string>();
  for (const [name, ids] of owners) if (ids.size === 1 && absences.has([...ids][0]!)) nameOwner.set(name, [...ids][0]!);
  const displayName = new Map(characters.map((c) => [c.id, c.name]));
  const matcher = nameMatcher([...nameOwner.keys()], input.excludedWords);

  const findings: ContinuityFinding[] = [];
  const describe = (absence: Absence, characterId: string, where: string, inEvent: boolean): Pick<ContinuityFinding, 'rule' | 'severity' | 'message'> => {
    const who = displayName.get(characterId) ?? '';
    const since = titleAt(order.chapterIndex.get(absence.change.chapterId!)!);
    if (absence.status === 'deceased') {
      return inEvent
        ? { rule: 'in-event-after-death', severity: 'error', message: `${who} takes part in “${where}” after dying in “${since}”` }
        : { rule: 'named-after-death', severity: 'warning', message: `${who} is named in “${where}” after dying in “${since}”` };
    }
    return inEvent
      ? { rule: 'in-event-while-missing', severity: 'warning', message: `${who} takes part in “${where}” while missing since “${since}”` }
      : { rule: 'named-while-missing', severity: 'note', message: `${who} is named in “${where}” while missing since “${since}”` };
  };

  // In reading order, so findings read as the story does.
  const chapterById = new Map(input.chapters.map((c) => [c.id, c]));
  for (const [index, chapterId] of order.chapterIds.entries()) {
    const chapter = chapterById.get(chapterId);
    if (!chapter || chapter.flashback) continue;
    const perCharacter = new Map<string, { first: ReturnType<typeof matcher.find>[number]; count: number; absence: Absence }>();
    for (const hit of matcher.find(chapter.content)) {
      const characterId = nameOwner.get(hit.name)!;
      const absence = absenceAt(absences.get(characterId)!, index);
      if (!absence) continue;
      const seen = perCharacter.get(characterId);
      if (seen) seen.count += 1;
      else perCharacter.set(characterId, { first: hit, count: 1, absence });
    }
    for (const [characterId, { first, count, absence }] of perCharacter) {
      findings.push({
        ...describe(absence, characterId, chapter.title, false),
        entityId: characterId,
        change: absence.change,
        evidence: { kind: 'chapter', chapterId: chapter.id, paragraph: first.paragraph, offset: first.offset, name: first.name, occurrences: count },
      });
    }
  }

  const placedEvents = input.events
    .filter((event) => event.deletedAt === null && !event.flashback && event.chapterId !== null && order.chapterIndex.has(event.chapterId))
    .map((event) => ({ event, index: order.chapterIndex.get(event.chapterId!)! }))
    .sort((a, b) => a.index - b.index);
  for (const { event, index } of placedEvents) {
    for (const characterId of event.characterIds) {
      const absence = absenceAt(absences.get(characterId) ?? [], index);
      if (!absence || absence.change.timelineEventId === event.id) continue;
      findings.push({ ...describe(absence, characterId, event.title, true), entityId: characterId, change: absence.change, evidence: { kind: 'event', eventId: event.id } });
    }
  }
  return findings;
}

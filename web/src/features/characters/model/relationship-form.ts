/**
 * The add-relationship form's rules (spec 001 §4, §5):
 * - the target list excludes the source;
 * - changing the source to equal the current target clears the target;
 * - the add button is disabled until both are chosen;
 * - the same source and target is refused with 'Invalid relationship' /
 *   'A character cannot have a relationship with themselves'.
 */
import type { Character } from '@chronicler/schema';
import { RELATIONSHIP_TYPES } from '@chronicler/schema';
import type { RelationshipType } from './map-geometry';

export interface RelationshipFormState {
  sourceCharacterId: string | null;
  targetCharacterId: string | null;
  relationshipType: RelationshipType;
  description: string;
}

export const DEFAULT_RELATIONSHIP_TYPE: RelationshipType = 'ally';

export function emptyRelationshipForm(sourceCharacterId: string | null = null): RelationshipFormState {
  return { sourceCharacterId, targetCharacterId: null, relationshipType: DEFAULT_RELATIONSHIP_TYPE, description: '' };
}

export function setSource(state: RelationshipFormState, sourceCharacterId: string | null): RelationshipFormState {
  const clearsTarget = sourceCharacterId !== null && sourceCharacterId === state.targetCharacterId;
  return { ...state, sourceCharacterId, targetCharacterId: clearsTarget ? null : state.targetCharacterId };
}

export function setTarget(state: RelationshipFormState, targetCharacterId: string | null): RelationshipFormState {
  return { ...state, targetCharacterId };
}

/** The characters offered as target: every character but the chosen source. */
export function targetOptions<C extends Pick<Character, 'id'>>(characters: readonly C[], sourceCharacterId: string | null): C[] {
  return characters.filter((c) => c.id !== sourceCharacterId);
}

/** The add button is enabled once both ends are chosen. */
export function canSubmitRelationship(state: Pick<RelationshipFormState, 'sourceCharacterId' | 'targetCharacterId'>): boolean {
  return Boolean(state.sourceCharacterId) && Boolean(state.targetCharacterId);
}

export type RelationshipCheck = { ok: true } | { ok: false; reason: 'incomplete' | 'self' };

export function checkRelationship(state: Pick<RelationshipFormState, 'sourceCharacterId' | 'targetCharacterId'>): RelationshipCheck {
  if (!canSubmitRelationship(state)) return { ok: false, reason: 'incomplete' };
  if (state.sourceCharacterId === state.targetCharacterId) return { ok: false, reason: 'self' };
  return { ok: true };
}

export function isRelationshipType(value: unknown): value is RelationshipType {
  return typeof value === 'string' && (RELATIONSHIP_TYPES as readonly string[]).includes(value);
}

import { describe, expect, it } from 'vitest';
import { canSubmitRelationship, checkRelationship, emptyRelationshipForm, setSource, setTarget, targetOptions } from './relationship-form';

const cast = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

describe('the add-relationship form (001 §4, §5)', () => {
  it('offers every character but the source as target', () => {
    expect(targetOptions(cast, 'b').map((c) => c.id)).toEqual(['a', 'c']);
    expect(targetOptions(cast, null).map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });

  it('clears the target when the source changes to equal it', () => {
    let s = setTarget(setSource(emptyRelationshipForm(), 'a'), 'b');
    s = setSource(s, 'b');
    expect(s.sourceCharacterId).toBe('b');
    expect(s.targetCharacterId).toBeNull();
  });

  it('keeps the target when the source changes to another character', () => {
    let s = setTarget(setSource(emptyRelationshipForm(), 'a'), 'b');
    s = setSource(s, 'c');
    expect(s.targetCharacterId).toBe('b');
  });

  it('enables adding only once both characters are chosen', () => {
    const s = emptyRelationshipForm();
    expect(canSubmitRelationship(s)).toBe(false);
    expect(canSubmitRelationship(setSource(s, 'a'))).toBe(false);
    expect(canSubmitRelationship(setTarget(s, 'a'))).toBe(false);
    expect(canSubmitRelationship(setTarget(setSource(s, 'a'), 'b'))).toBe(true);
  });

  it('refuses a relationship of a character with themselves', () => {
    expect(checkRelationship({ sourceCharacterId: 'a', targetCharacterId: 'a' })).toEqual({ ok: false, reason: 'self' });
    expect(checkRelationship({ sourceCharacterId: 'a', targetCharacterId: null })).toEqual({ ok: false, reason: 'incomplete' });
    expect(checkRelationship({ sourceCharacterId: 'a', targetCharacterId: 'b' })).toEqual({ ok: true });
  });

  it('starts as an ally with no description, optionally with a source', () => {
    expect(emptyRelationshipForm('a')).toEqual({ sourceCharacterId: 'a', targetCharacterId: null, relationshipType: 'ally', description: '' });
  });
});

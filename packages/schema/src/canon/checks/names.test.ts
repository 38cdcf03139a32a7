import { describe, expect, it } from 'vitest';
import { nameMatcher } from './names.ts';

const found = (names: string[], text: string, excluded: string[] = []) => nameMatcher(names, excluded).find(text).map((h) => [h.name, h.paragraph, h.offset]);

describe('finding names in chapter text', () => {
  it('matches whole words only, possessives included', () => {
    expect(found(['Mara'], 'Mara’s map. Marathon, Amara, Mara-Lee and MARA.')).toEqual([['Mara', 0, 0], ['Mara', 0, 29]]);
  });

  it('matches a capitalised name case-sensitively, and a lowercase one in any case', () => {
    expect(found(['Will', 'Hope'], 'I will go. Will you? There is hope. Hope came.')).toEqual([['Will', 0, 11], ['Hope', 0, 36]]);
    expect(found(['the ferryman'], 'The Ferryman waits.\nthe ferryman sleeps.')).toEqual([['the ferryman', 0, 0], ['the ferryman', 1, 0]]);
  });

  it('prefers the longest name, gives paragraphs and offsets, and skips excluded words and blanks', () => {
    expect(found(['Mara', 'Mara of Vell', ' '], 'x\n*Mara of Vell* and Mara')).toEqual([['Mara of Vell', 1, 1], ['Mara', 1, 19]]);
    expect(found(['Will', 'Mara'], 'Will and Mara', ['will'])).toEqual([['Mara', 0, 9]]);
    expect(found([], 'Mara')).toEqual([]);
  });

  it('takes names with regular-expression characters literally', () => {
    expect(found(['K. (the Elder)'], 'K. (the Elder) waits; K (the Elder) does not.')).toEqual([['K. (the Elder)', 0, 0]]);
  });
});

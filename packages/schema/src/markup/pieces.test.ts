import { describe, expect, it } from 'vitest';
import { styledPieces } from './pieces.ts';

describe('styledPieces', () => {
  it('pairs markers across the parts of a comparison and leaves them out', () => {
    const parts = [
      { text: 'The *silver ', kind: 'same' as const },
      { text: 'ship', kind: 'added' as const },
      { text: '* left \\* **now**.', kind: 'same' as const },
    ];
    expect(styledPieces(parts)).toEqual([
      { text: 'The ', kind: 'same', italic: false, bold: false },
      { text: 'silver ', kind: 'same', italic: true, bold: false },
      { text: 'ship', kind: 'added', italic: true, bold: false },
      { text: ' left ', kind: 'same', italic: false, bold: false },
      { text: '* ', kind: 'same', italic: false, bold: false },
      { text: 'now', kind: 'same', italic: false, bold: true },
      { text: '.', kind: 'same', italic: false, bold: false },
    ]);
  });

  it('keeps text without markup whole, line breaks included', () => {
    expect(styledPieces([{ text: 'a\nb', kind: 'removed' }])).toEqual([{ text: 'a\nb', kind: 'removed', italic: false, bold: false }]);
  });
});

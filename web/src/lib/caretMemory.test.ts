import { describe, expect, it } from 'vitest';
import { type CaretStore, MAX_CHAPTERS, recallCaret, rememberCaret } from './caretMemory';

function memoryStore(initial: string | null = null): CaretStore & { value: string | null } {
  return {
    value: initial,
    read() {
      return this.value;
    },
    write(value: string) {
      this.value = value;
    },
  };
}

describe('caret memory', () => {
  it('recalls the caret a chapter was left at, per chapter', () => {
    const store = memoryStore();
    rememberCaret(store, 'a', { anchor: 120, head: 140 }, 1);
    rememberCaret(store, 'b', { anchor: 7, head: 7 }, 2);
    expect(recallCaret(store, 'a', 10_000)).toEqual({ anchor: 120, head: 140 });
    expect(recallCaret(store, 'b', 10_000)).toEqual({ anchor: 7, head: 7 });
    expect(recallCaret(store, 'c', 10_000)).toBeNull();
  });

  it('clamps to a text that became shorter elsewhere', () => {
    const store = memoryStore();
    rememberCaret(store, 'a', { anchor: 900, head: 1_000 }, 1);
    expect(recallCaret(store, 'a', 950)).toEqual({ anchor: 900, head: 950 });
  });

  it('forgets the chapters remembered longest ago past the cap', () => {
    const store = memoryStore();
    for (let i = 0; i <= MAX_CHAPTERS; i++) rememberCaret(store, `ch${i}`, { anchor: i, head: i }, i);
    expect(recallCaret(store, 'ch0', 10)).toBeNull();
    expect(recallCaret(store, 'ch1', 10)).toEqual({ anchor: 1, head: 1 });
    expect(recallCaret(store, `ch${MAX_CHAPTERS}`, 1_000)).toEqual({ anchor: MAX_CHAPTERS, head: MAX_CHAPTERS });
  });

  it('ignores damaged storage instead of failing the editor', () => {
    for (const raw of ['not json', '[1,2,3]', '{"a":[1,"x",3]}', '{"a":[-1,2,3]}', 'null']) {
      const store = memoryStore(raw);
      expect(recallCaret(store, 'a', 100)).toBeNull();
      rememberCaret(store, 'b', { anchor: 3, head: 4 }, 5);
      expect(recallCaret(store, 'b', 100)).toEqual({ anchor: 3, head: 4 });
    }
  });
});

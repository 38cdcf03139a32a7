import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  type LocalInput,
  type SavePlan,
  type SavedVersion,
  autoSaveReady,
  changedFields,
  classifyIncoming,
  decideDraft,
  hasChanges,
  planSave,
  refuseSave,
} from './save-plan';
import type { ChapterStatus } from './constants';

const saved = (over: Partial<SavedVersion> = {}): SavedVersion => ({
  rev: 3,
  title: 'Lanterns',
  content: 'First.\nSecond.\nThird.',
  status: 'in_progress',
  ...over,
});
const local = (v: SavedVersion, over: Partial<LocalInput> = {}): LocalInput => ({
  title: v.title,
  content: v.content,
  status: v.status,
  ...over,
});

function sent(plan: SavePlan) {
  if (plan.kind !== 'send') throw new Error(`expected a send, got ${plan.kind}`);
  return plan;
}

describe('planSave without text saved elsewhere (a fast-forward of the base)', () => {
  it('sends only the fields the author changed, against the base revision', () => {
    const base = saved();
    const plan = sent(planSave(base, local(base, { content: 'First.\nSecond, edited.\nThird.' }), null));
    expect(plan.baseRev).toBe(3);
    expect(plan.fields).toEqual({ content: 'First.\nSecond, edited.\nThird.' });
    expect(plan.show.content).toBe('First.\nSecond, edited.\nThird.');
    expect(plan.saved).toEqual({ ...base, content: 'First.\nSecond, edited.\nThird.' });
    expect(plan.merged).toBe(false);
  });

  it('sends title and status changes alone', () => {
    const base = saved();
    const plan = sent(planSave(base, local(base, { title: 'Embers', status: 'completed' }), null));
    expect(plan.fields).toEqual({ title: 'Embers', status: 'completed' });
  });

  it('plans an empty update when nothing changed', () => {
    const base = saved();
    const plan = sent(planSave(base, local(base), null));
    expect(hasChanges(plan.fields)).toBe(false);
    expect(plan.saved).toEqual(base);
  });

  it('a new chapter (rev 0, empty) sends everything the author typed', () => {
    const base: SavedVersion = { rev: 0, title: '', content: '', status: 'in_progress' };
    const plan = sent(planSave(base, { title: 'Embers', content: 'Smoke.', status: 'in_progress' }, null));
    expect(plan.baseRev).toBe(0);
    expect(plan.fields).toEqual({ title: 'Embers', content: 'Smoke.' });
  });
});

describe('planSave with text saved elsewhere meanwhile', () => {
  it('merges different paragraphs and sends the result against the newer revision', () => {
    const base = saved();
    const elsewhere = saved({ rev: 8, content: 'First.\nSecond.\nThird, theirs.' });
    const plan = sent(planSave(base, local(base, { content: 'First, mine.\nSecond.\nThird.' }), elsewhere));
    expect(plan.baseRev).toBe(8);
    expect(plan.show.content).toBe('First, mine.\nSecond.\nThird, theirs.');
    expect(plan.fields).toEqual({ content: 'First, mine.\nSecond.\nThird, theirs.' });
    expect(plan.saved.rev).toBe(8);
    expect(plan.merged).toBe(true);
  });

  it('asks the author to compare when both changed the same paragraph, sending nothing', () => {
    const base = saved({ content: 'First.\nSecond.' });
    const elsewhere = saved({ rev: 8, content: 'First, theirs.\nSecond.' });
    const plan = planSave(base, local(base, { content: 'First, mine.\nSecond.' }), elsewhere);
    expect(plan).toEqual({ kind: 'conflict', elsewhere });
  });

  it('keeps a title or status changed elsewhere when the author left it alone, and the author’s own otherwise', () => {
    const base = saved();
    const elsewhere = saved({ rev: 8, title: 'Lanterns (theirs)', status: 'revision' });
    const untouched = sent(planSave(base, local(base, { content: 'First.\nSecond.\nThird!' }), elsewhere));
    expect(untouched.show).toMatchObject({ title: 'Lanterns (theirs)', status: 'revision' });
    expect(untouched.fields).toEqual({ content: 'First.\nSecond.\nThird!' });
    const edited = sent(planSave(base, local(base, { title: 'Mine', status: 'completed' }), elsewhere));
    expect(edited.show).toMatchObject({ title: 'Mine', status: 'completed', content: base.content });
    expect(edited.fields).toEqual({ title: 'Mine', status: 'completed' });
  });

  it('sends nothing new when the author changed nothing (the editor just catches up)', () => {
    const base = saved();
    const elsewhere = saved({ rev: 8, content: 'Rewritten.' });
    const plan = sent(planSave(base, local(base), elsewhere));
    expect(plan.show).toEqual(local(elsewhere));
    expect(hasChanges(plan.fields)).toBe(false);
  });
});

describe('the small rules around a save', () => {
  it('refuses without a title, then without a book', () => {
    expect(refuseSave('   ', true)).toBe('title-required');
    expect(refuseSave('', false)).toBe('title-required');
    expect(refuseSave('Lanterns', false)).toBe('book-required');
    expect(refuseSave('Lanterns', true)).toBeNull();
  });

  it('auto-saves only unsaved input with a title and words, when nothing else is going on', () => {
    const ready = { dirty: true, saving: false, offering: false, title: 'T', content: 'Words.' };
    expect(autoSaveReady(ready)).toBe(true);
    expect(autoSaveReady({ ...ready, dirty: false })).toBe(false);
    expect(autoSaveReady({ ...ready, saving: true })).toBe(false);
    expect(autoSaveReady({ ...ready, offering: true })).toBe(false);
    expect(autoSaveReady({ ...ready, title: '  ' })).toBe(false);
    expect(autoSaveReady({ ...ready, content: '\n ' })).toBe(false);
  });

  it('classifies a saved state arriving under the editor', () => {
    const base = saved();
    const idle = { dirty: false, saving: false, offering: false };
    expect(classifyIncoming(base, saved({ rev: 9, status: 'completed' }), { ...idle, dirty: true })).toBe('echo');
    expect(classifyIncoming(base, saved({ content: 'New.' }), { ...idle, saving: true })).toBe('wait');
    expect(classifyIncoming(base, saved({ content: 'New.' }), idle)).toBe('adopt');
    expect(classifyIncoming(base, saved({ title: 'New' }), { ...idle, dirty: true })).toBe('hold');
    expect(classifyIncoming(base, saved({ title: 'New' }), { ...idle, offering: true })).toBe('hold');
  });

  it('offers a draft that differs from the saved text, saying when the saved text is newer', () => {
    const base = saved();
    expect(decideDraft(undefined, base, null)).toEqual({ kind: 'none' });
    expect(decideDraft({ title: base.title, content: base.content, updatedAt: 5 }, base, 10)).toEqual({ kind: 'discard' });
    const draft = { title: base.title, content: 'More words.', updatedAt: 100 };
    expect(decideDraft(draft, base, 50)).toEqual({ kind: 'offer', olderThanSaved: false });
    expect(decideDraft(draft, base, 150)).toEqual({ kind: 'offer', olderThanSaved: true });
    expect(decideDraft(draft, base, null)).toEqual({ kind: 'offer', olderThanSaved: false });
    expect(decideDraft(draft, base, Number.NaN)).toEqual({ kind: 'offer', olderThanSaved: false });
  });
});

// ------------------------------------------------------------------------------------------------
// Properties over random edits. Base paragraphs are distinct; each side's new paragraphs carry its
// own tag, so "a paragraph the author added" is well defined and must survive any clean merge.

type Op = 'keep' | 'delete' | 'replace' | 'insert';
const opArb = fc.constantFrom<Op>('keep', 'keep', 'keep', 'delete', 'replace', 'insert');
const statusArb = fc.constantFrom<ChapterStatus>('in_progress', 'draft', 'revision', 'completed');

function applyOps(base: readonly string[], ops: readonly Op[], tag: string): string[] {
  const out: string[] = [];
  let fresh = 0;
  base.forEach((p, i) => {
    const op = ops[i] ?? 'keep';
    if (op === 'keep') out.push(p);
    else if (op === 'replace') out.push(`${tag}${fresh++} ${p}`);
    else if (op === 'insert') out.push(p, `${tag}${fresh++}`);
  });
  return out;
}

const caseArb = fc
  .record({
    size: fc.integer({ min: 0, max: 12 }),
    separator: fc.constantFrom('\n', '\n\n'),
    rev: fc.integer({ min: 0, max: 50 }),
    gap: fc.integer({ min: 1, max: 20 }),
    titles: fc.tuple(fc.constantFrom('A', 'B'), fc.constantFrom('A', 'B', 'C'), fc.constantFrom('A', 'B', 'D')),
    statuses: fc.tuple(statusArb, statusArb, statusArb),
    hasElsewhere: fc.boolean(),
  })
  .chain((c) =>
    fc.record({
      c: fc.constant(c),
      mine: fc.array(opArb, { minLength: c.size, maxLength: c.size }),
      theirs: fc.array(opArb, { minLength: c.size, maxLength: c.size }),
    }),
  )
  .map(({ c, mine, theirs }) => {
    const paragraphs = Array.from({ length: c.size }, (_, i) => `p${i}.`);
    const join = (ps: string[]) => ps.join(c.separator);
    const base: SavedVersion = { rev: c.rev, title: c.titles[0], content: join(paragraphs), status: c.statuses[0] };
    const input: LocalInput = { title: c.titles[1], content: join(applyOps(paragraphs, mine, 'L')), status: c.statuses[1] };
    const elsewhere: SavedVersion | null = c.hasElsewhere
      ? { rev: c.rev + c.gap, title: c.titles[2], content: join(applyOps(paragraphs, theirs, 'E')), status: c.statuses[2] }
      : null;
    return { base, input, elsewhere };
  });

const added = (text: string, tag: string) => text.split('\n').filter((p) => p.startsWith(tag));
const RUNS = { numRuns: 1000 };

describe('planSave properties', () => {
  it('never drops a paragraph the author added: it is in what is shown and sent, or the author compares', () => {
    fc.assert(
      fc.property(caseArb, ({ base, input, elsewhere }) => {
        const plan = planSave(base, input, elsewhere);
        if (plan.kind === 'conflict') {
          expect(elsewhere).not.toBeNull();
          return;
        }
        const shown = plan.show.content.split('\n');
        for (const p of added(input.content, 'L')) expect(shown).toContain(p);
      }),
      RUNS,
    );
  });

  it('never drops a paragraph added elsewhere either', () => {
    fc.assert(
      fc.property(caseArb, ({ base, input, elsewhere }) => {
        const plan = planSave(base, input, elsewhere);
        if (plan.kind === 'conflict' || !elsewhere) return;
        const shown = plan.show.content.split('\n');
        for (const p of added(elsewhere.content, 'E')) expect(shown).toContain(p);
      }),
      RUNS,
    );
  });

  it('the planned send is a fast-forward of the base, or carries the revision it was merged onto', () => {
    fc.assert(
      fc.property(caseArb, ({ base, input, elsewhere }) => {
        const plan = planSave(base, input, elsewhere);
        if (plan.kind === 'conflict') return;
        const against = elsewhere ?? base;
        expect(plan.baseRev).toBe(against.rev);
        // Applying the update to the version it names gives exactly what the editor shows.
        const applied = { title: against.title, content: against.content, status: against.status, ...plan.fields };
        expect(applied).toEqual(plan.show);
        expect(plan.saved).toEqual({ rev: against.rev, ...plan.show });
        // Only fields that differ are sent.
        for (const [key, value] of Object.entries(plan.fields)) expect(value).not.toBe(against[key as keyof LocalInput]);
        if (!elsewhere) {
          expect(plan.show).toEqual(input);
          expect(plan.merged).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it('is settled after its own save: planning again from the saved state sends nothing', () => {
    fc.assert(
      fc.property(caseArb, ({ base, input, elsewhere }) => {
        const plan = planSave(base, input, elsewhere);
        if (plan.kind === 'conflict') return;
        const again = sent(planSave(plan.saved, plan.show, null));
        expect(hasChanges(again.fields)).toBe(false);
      }),
      RUNS,
    );
  });

  it('merges without asking when the two sides edited paragraphs apart from each other', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 14 }).chain((size) =>
          fc.record({
            size: fc.constant(size),
            split: fc.integer({ min: 1, max: size - 2 }),
            mine: fc.array(opArb, { minLength: size, maxLength: size }),
            theirs: fc.array(opArb, { minLength: size, maxLength: size }),
          }),
        ),
        ({ size, split, mine, theirs }) => {
          const paragraphs = Array.from({ length: size }, (_, i) => `p${i}.`);
          // The author edits before `split`, elsewhere after it; paragraph `split` stays untouched.
          const mineOps = mine.map((op, i) => (i < split ? op : 'keep'));
          const theirOps = theirs.map((op, i) => (i > split ? op : 'keep'));
          const base: SavedVersion = { rev: 1, title: 'T', content: paragraphs.join('\n'), status: 'draft' };
          const elsewhere: SavedVersion = { ...base, rev: 2, content: applyOps(paragraphs, theirOps, 'E').join('\n') };
          const input = local(base, { content: applyOps(paragraphs, mineOps, 'L').join('\n') });
          const plan = sent(planSave(base, input, elsewhere));
          const shown = plan.show.content.split('\n');
          expect(shown).toContain(`p${split}.`);
          for (const p of [...added(input.content, 'L'), ...added(elsewhere.content, 'E')]) expect(shown).toContain(p);
        },
      ),
      RUNS,
    );
  });

  it('changedFields is empty exactly when the two inputs are equal', () => {
    fc.assert(
      fc.property(
        fc.record({ title: fc.string(), content: fc.string(), status: statusArb }),
        fc.record({ title: fc.string(), content: fc.string(), status: statusArb }),
        (a, b) => {
          const same = a.title === b.title && a.content === b.content && a.status === b.status;
          expect(hasChanges(changedFields(a, b))).toBe(!same);
          expect({ ...a, ...changedFields(a, b) }).toEqual(b);
        },
      ),
      RUNS,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { problemToast, toastForProblem } from './problemToast';

describe('toastForProblem', () => {
  it('a change saved onto a row deleted elsewhere is a plain heads-up, a refusal the failure toast', () => {
    const entry = { entity: 'chapters', kind: 'create' } as const;
    expect(toastForProblem({ entry, status: 201 } as never, 'Saved, but its book had been deleted')).toEqual({ title: 'Deleted on another device', message: 'Saved, but its book had been deleted', variant: 'default' });
    expect(toastForProblem({ entry, status: 422 } as never, 'Too long')).toMatchObject({ title: 'Error saving chapter', variant: 'destructive' });
  });
});

describe('problemToast', () => {
  it('uses the catalogue failure toast of the refused change, with the server reason', () => {
    expect(problemToast({ entity: 'books', kind: 'create' }, 'Limit reached')).toEqual({ title: 'Error creating book', message: 'Limit reached', variant: 'destructive' });
    expect(problemToast({ entity: 'series', kind: 'create' }, 'x')).toMatchObject({ title: 'Error creating series' });
    expect(problemToast({ entity: 'chapters', kind: 'update' }, 'x')).toMatchObject({ title: 'Error saving chapter' });
    expect(problemToast({ entity: 'timelineEvents', kind: 'reorder' }, 'x')).toMatchObject({ title: 'Error', message: 'Failed to reorder events: x' });
  });
});

import { describe, expect, it } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { deferredModule } from './deferredModule';

describe('deferredModule', () => {
  it('downloads only when wanted, keeps the module, and tries again when the network returns — never throwing', async () => {
    let calls = 0;
    let offline = true;
    const mod = deferredModule(async () => {
      calls += 1;
      if (offline) throw new TypeError('Failed to fetch dynamically imported module');
      return { answer: 42 };
    });
    const { result, rerender } = renderHook(({ wanted }) => mod.useModule(wanted), { initialProps: { wanted: false } });
    expect(calls).toBe(0);
    rerender({ wanted: true });
    await waitFor(() => expect(calls).toBe(1));
    expect(result.current).toBeUndefined();

    offline = false;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(result.current).toEqual({ answer: 42 }));
    expect(calls).toBe(2);

    // Another user of the same module gets it at once, without a download.
    const second = renderHook(() => mod.useModule(true));
    expect(second.result.current).toEqual({ answer: 42 });
    expect(calls).toBe(2);
  });
});

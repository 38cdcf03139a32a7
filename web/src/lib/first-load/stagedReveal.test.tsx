import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STEP_DEADLINE_MS, useStagedReveal } from './stagedReveal';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('useStagedReveal', () => {
  it('stays at the first screenful until ready, then advances one step per paint up to the last, announcing each', async () => {
    vi.useFakeTimers();
    // A frame every 16 ms, on the fake clock.
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => setTimeout(() => callback(performance.now()), 16));
    vi.stubGlobal('cancelAnimationFrame', (frame: ReturnType<typeof setTimeout>) => clearTimeout(frame));
    const onAdvance = vi.fn();
    const { result, rerender } = renderHook(({ ready }) => useStagedReveal(ready, 3, onAdvance), { initialProps: { ready: false } });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current).toBe(0);
    expect(onAdvance).not.toHaveBeenCalled();

    rerender({ ready: true });
    // jsdom records no largest paint: the first step comes when afterPresented gives up waiting
    // (250 ms), each later one a frame after the previous step's commit.
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(result.current).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(result.current).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(result.current).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current).toBe(3);
    expect(onAdvance.mock.calls.map(([step]) => step)).toEqual([1, 2, 3]);
  });

  it('never leaves a step waiting past the deadline: with no frame ever coming, each step is drawn a second later', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 0);
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    const onAdvance = vi.fn();
    const { result } = renderHook(() => useStagedReveal(true, 3, onAdvance));
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(result.current).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(STEP_DEADLINE_MS - 50));
    expect(result.current).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(result.current).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(STEP_DEADLINE_MS));
    expect(result.current).toBe(3);
    expect(onAdvance.mock.calls.map(([step]) => step)).toEqual([1, 2, 3]);
  });
});

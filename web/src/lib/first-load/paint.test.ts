import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPresented } from './paint';

/** A PerformanceObserver that reports largest-contentful-paint entries the test emits. */
function stubObserver() {
  const observers: ((entries: { startTime: number }[]) => void)[] = [];
  class Observer {
    static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    constructor(private readonly callback: (list: { getEntries: () => { startTime: number }[] }) => void) {}
    observe() {
      observers.push((entries) => this.callback({ getEntries: () => entries }));
    }
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', Observer);
  return (startTime: number) => observers.forEach((emit) => emit([{ startTime }]));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterPresented', () => {
  it('waits for the browser to record a paint at or after the commit, not for an earlier one', () => {
    vi.useFakeTimers();
    const emit = stubObserver();
    const done = vi.fn();
    afterPresented(100, done);
    emit(80); // the outline's paint, before the commit
    vi.advanceTimersByTime(50);
    expect(done).not.toHaveBeenCalled();
    emit(130);
    vi.advanceTimersByTime(1);
    expect(done).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('runs at most maxWaitMs later when no new largest paint comes, and not at all once cancelled', () => {
    vi.useFakeTimers();
    stubObserver();
    const done = vi.fn();
    afterPresented(100, done, 250);
    vi.advanceTimersByTime(249);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(done).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    afterPresented(100, cancelled, 250)();
    vi.advanceTimersByTime(1000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});

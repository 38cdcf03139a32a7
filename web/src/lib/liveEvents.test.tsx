import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: whether a screen wanted live events is remembered per page. */
async function freshLiveEvents() {
  vi.resetModules();
  return import('./liveEvents');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('when the live channel may connect (liveChannelReady)', () => {
  it('waits while no screen listens for live events, and connects once a screen does', async () => {
    const { liveChannelReady, useLiveEvent } = await freshLiveEvents();
    const connect = vi.fn();
    liveChannelReady(connect);
    expect(connect).not.toHaveBeenCalled();

    function Presence() {
      useLiveEvent('presence', () => undefined);
      return null;
    }
    render(<Presence />);
    expect(connect).toHaveBeenCalledTimes(1);
    // Wanted once, a later engine (another sign-in) connects at once.
    const later = vi.fn();
    liveChannelReady(later);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('connects a second after the first screen when no screen asks, and never after a cancel', async () => {
    vi.useFakeTimers();
    const { LIVE_CHANNEL_DELAY_MS, liveChannelReady } = await freshLiveEvents();
    const connect = vi.fn();
    const cancelled = vi.fn();
    liveChannelReady(connect);
    liveChannelReady(cancelled)();
    // jsdom: the page has loaded and records no paint, so the first screen counts as painted within a second.
    await vi.advanceTimersByTimeAsync(1000 + LIVE_CHANNEL_DELAY_MS + 100);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});

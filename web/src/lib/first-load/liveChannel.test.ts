import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: whether a screen wanted live events is remembered per page. */
async function freshLiveChannel() {
  vi.resetModules();
  return import('./liveChannel');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('when the live channel may open (liveChannelPolicy)', () => {
  it('waits while no screen listens for live events, and opens once a screen does', async () => {
    const { liveChannelPolicy, wantLiveChannel } = await freshLiveChannel();
    const opened = vi.fn();
    void liveChannelPolicy.openWhen(new AbortController().signal).then(opened);
    await Promise.resolve();
    expect(opened).not.toHaveBeenCalled();

    wantLiveChannel();
    await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
    // Wanted once, a later engine (another sign-in) opens at once.
    const later = vi.fn();
    await liveChannelPolicy.openWhen(new AbortController().signal).then(later);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('opens a second after the first paint when no screen asks, and never after an abort', async () => {
    vi.useFakeTimers();
    const { LIVE_CHANNEL_DELAY_MS, liveChannelPolicy } = await freshLiveChannel();
    const opened = vi.fn();
    const aborted = vi.fn();
    const refused = vi.fn();
    void liveChannelPolicy.openWhen(new AbortController().signal).then(opened);
    const stop = new AbortController();
    void liveChannelPolicy.openWhen(stop.signal).then(aborted, refused);
    stop.abort();
    // jsdom: the page has loaded and records no paint, so the first paint counts within a second.
    await vi.advanceTimersByTimeAsync(1000 + LIVE_CHANNEL_DELAY_MS + 100);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(aborted).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalledTimes(1);
  });
});

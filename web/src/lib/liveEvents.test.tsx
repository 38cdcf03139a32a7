import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

describe('useLiveEvent', () => {
  it('opens the live channel at once: named events are not in the feed', async () => {
    vi.resetModules();
    const { useLiveEvent } = await import('./liveEvents');
    const { liveChannelPolicy } = await import('./first-load');
    const opened = vi.fn();
    void liveChannelPolicy.openWhen(new AbortController().signal).then(opened);
    await Promise.resolve();
    expect(opened).not.toHaveBeenCalled();

    function Presence() {
      useLiveEvent('presence', () => undefined);
      return null;
    }
    render(<Presence />);
    await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
  });
});

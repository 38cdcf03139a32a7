import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { SyncEvent } from '@chronicler/sync-client';
import { TEST_USER, stubFetch } from '@/test/fetch-stub';
import { relayLiveEvents } from './liveEvents';
import { useSession } from './session';
import { usePresence } from './usePresence';

afterEach(() => vi.unstubAllGlobals());

const ann = { userId: 'ann', displayName: 'Ann' };
const bea = { userId: 'bea', displayName: 'Bea' };
const url = '/api/collaboration/chapters/ch1/presence';

describe('usePresence', () => {
  it('announces itself, follows presence events for its chapter (without itself), and says goodbye when closed', async () => {
    useSession.setState({ status: 'authenticated', user: { ...TEST_USER }, source: 'server' });
    const { calls } = stubFetch({ [`POST ${url}`]: { status: 200, body: { present: [ann] } }, [`DELETE ${url}`]: { status: 200, body: { present: [] } } });
    const listeners = new Set<(event: SyncEvent) => void>();
    const stop = relayLiveEvents({ on: (fn) => (listeners.add(fn), () => listeners.delete(fn)) }, TEST_USER.id);
    const hear = (data: unknown) => act(() => listeners.forEach((fn) => fn({ type: 'live', event: 'presence', data })));
    try {
      const { result, unmount } = renderHook(() => usePresence('ch1'));
      await waitFor(() => expect(result.current).toEqual([ann]));
      hear({ chapterId: 'ch1', present: [ann, bea, { userId: TEST_USER.id, displayName: 'Me' }] });
      expect(result.current).toEqual([ann, bea]);
      hear({ chapterId: 'another', present: [] });
      expect(result.current).toEqual([ann, bea]);
      hear({ chapterId: 'ch1', present: [bea] });
      expect(result.current).toEqual([bea]);
      unmount();
      await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === url)).toBe(true));
    } finally {
      stop();
    }
  });
});

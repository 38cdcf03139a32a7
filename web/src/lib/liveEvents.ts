/**
 * Named events of the sync stream that are not commits (packages/schema LIVE_EVENTS: presence,
 * invites) for every tab. Only the leader tab's engine holds the stream
 * (docs/sync-protocol.md#live-channel), so each tab's SyncProvider relays what its engine hears over a
 * BroadcastChannel of the user, and hears the other tabs' relays on it; screens listen with
 * `useLiveEvent`.
 */
import { useEffect, useRef } from 'react';
import type { LiveEventName } from '@chronicler/schema';
import type { SyncEngine } from '@chronicler/sync-client';
import { wantLiveChannel } from './first-load';

interface LiveEvent {
  event: LiveEventName;
  data: unknown;
}
type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();

function dispatch(event: LiveEvent): void {
  for (const listener of listeners) listener(event);
}

/** Relays `engine`'s live events to this tab's listeners and to the user's other tabs (and theirs here). */
export function relayLiveEvents(engine: Pick<SyncEngine, 'on'>, userId: string): () => void {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`chronicler-live-${userId}`) : null;
  if (channel) channel.onmessage = (message: MessageEvent<LiveEvent>) => dispatch(message.data);
  const stop = engine.on((event) => {
    if (event.type !== 'live') return;
    const live = { event: event.event, data: event.data };
    dispatch(live);
    channel?.postMessage(live);
  });
  return () => {
    stop();
    channel?.close();
  };
}

/**
 * Calls `listener` with the data of each `name` event heard in any of the user's tabs. The live
 * channel opens at once from then on (first-load/liveChannel.ts).
 */
export function useLiveEvent(name: LiveEventName, listener: (data: unknown) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => {
    wantLiveChannel();
    const heard: Listener = (event) => {
      if (event.event === name) ref.current(event.data);
    };
    listeners.add(heard);
    return () => void listeners.delete(heard);
  }, [name]);
}

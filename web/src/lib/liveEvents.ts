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
import { afterFirstScreen } from './afterFirstPaint';

/** How long after the first screen the live channel (SSE) connects when no screen has asked for it. */
export const LIVE_CHANNEL_DELAY_MS = 1000;

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

/** Whether a screen has listened for live events in this tab (`useLiveEvent`), and who waits for one. */
let liveWanted = false;
const liveWanters = new Set<() => void>();

function wantLiveEvents(): void {
  if (liveWanted) return;
  liveWanted = true;
  for (const wanter of [...liveWanters]) wanter();
  liveWanters.clear();
}

/**
 * When the sync engine's live channel may connect (its `liveAfter`, SyncProvider): a second after
 * the first screen — the stream holds one of a phone's six HTTP/1.1 connections for as long as the
 * app is open, and the first screen's downloads need them
 * (docs/decisions/0005-live-channel-delay.md) — or at once when a screen listens for live events (a
 * chapter's presence, the invites): they are not in the feed, so one told before the stream is open
 * is missed, and a chapter left before it was open stayed "here" for the others. Returns a cancel.
 */
export function liveChannelReady(connect: () => void): () => void {
  if (liveWanted) {
    connect();
    return () => undefined;
  }
  let cancelDelay = () => undefined as void;
  const go = () => {
    liveWanters.delete(go);
    cancelDelay();
    connect();
  };
  liveWanters.add(go);
  cancelDelay = afterFirstScreen(go, LIVE_CHANNEL_DELAY_MS);
  return () => {
    liveWanters.delete(go);
    cancelDelay();
  };
}

/**
 * Calls `listener` with the data of each `name` event heard in any of the user's tabs. The live
 * channel connects at once from then on (`liveChannelReady`).
 */
export function useLiveEvent(name: LiveEventName, listener: (data: unknown) => void): void {
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => {
    wantLiveEvents();
    const heard: Listener = (event) => {
      if (event.event === name) ref.current(event.data);
    };
    listeners.add(heard);
    return () => void listeners.delete(heard);
  }, [name]);
}

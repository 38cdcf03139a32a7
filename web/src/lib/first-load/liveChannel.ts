/**
 * When the sync engine's live channel opens (its `liveChannel` policy, app/SyncProvider): a second
 * after the first paint — the stream holds one of a phone's six HTTP/1.1 connections for as long as
 * the app is open, and the first screen's downloads need them
 * (docs/decisions/0005-live-channel-delay.md) — or at once when a screen listens for live events
 * (lib/liveEvents `useLiveEvent`: a chapter's presence, the invites): they are not in the feed, so
 * one told before the stream is open is missed, and a chapter left before it was open stayed
 * "here" for the others.
 */
import type { LiveChannelPolicy } from '@chronicler/sync-client';
import { afterFirstPaint } from './moments';

/** How long after the first paint the live channel opens when no screen has asked for it. */
export const LIVE_CHANNEL_DELAY_MS = 1000;

/** Whether a screen has listened for live events in this tab, and the waits it ends. */
let wanted = false;
const waiting = new Set<() => void>();

/** A screen listens for live events: the channel opens now, and at once from then on. */
export function wantLiveChannel(): void {
  if (wanted) return;
  wanted = true;
  for (const open of [...waiting]) open();
  waiting.clear();
}

export const liveChannelPolicy: LiveChannelPolicy = {
  openWhen: (signal) =>
    new Promise<void>((resolve, reject) => {
      if (wanted) return resolve();
      let cancelDelay = () => undefined as void;
      const done = () => {
        waiting.delete(open);
        cancelDelay();
        signal.removeEventListener('abort', abort);
      };
      const open = () => {
        done();
        resolve();
      };
      const abort = () => {
        done();
        reject(signal.reason);
      };
      waiting.add(open);
      cancelDelay = afterFirstPaint(open, LIVE_CHANNEL_DELAY_MS);
      signal.addEventListener('abort', abort, { once: true });
    }),
};

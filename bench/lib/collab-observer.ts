/**
 * The observing member of collab-live.ts, in its own process (a worker thread does not get tsx's
 * loader on Node 20): a real member's device has a CPU of its own, not one shared with the other
 * 19 members' engines. It also times the bare
 * GET /api/user round trip from this process, so both sides of the ratio are seen from here.
 *
 * Protocol (parent → observer, over the IPC channel): {watch: marker} → 'watching'; then, once the marker is in this
 * device's IndexedDB, {arrived: marker, at: sharedNow()}. {bare: true} → {bareMs}. {stop: true}.
 */
import { ApiClient } from './api.ts';
import { type Device, connect, disconnect, sharedNow } from './collab-device.ts';

export interface ObserverData {
  baseUrl: string;
  cookie: string;
  userId: string;
  chapterId: string;
}
export type ObserverRequest = { watch: string } | { bare: true } | { stop: true };
export type ObserverReply = { ready: true } | { watching: string } | { arrived: string; at: number; marks: Device['marks'] } | { bareMs: number };

const data = JSON.parse(process.argv[2]!) as ObserverData;
const post = (reply: ObserverReply) => process.send!(reply);
const device = connect(data.baseUrl, data.cookie, data.userId);
const client = new ApiClient(data.baseUrl);
client.cookie = data.cookie;

let watched: string | null = null;
device.onPulled = () => {
  const marker = watched;
  if (marker === null) return;
  void device.db.chapters.get(data.chapterId).then((row) => {
    if (watched !== marker || !row?.content.includes(marker)) return;
    const at = sharedNow();
    watched = null;
    post({ arrived: marker, at, marks: { ...device.marks } });
  });
};

process.on('message', (message: ObserverRequest) => {
  if ('watch' in message) {
    watched = message.watch;
    post({ watching: message.watch });
  } else if ('bare' in message) {
    const start = sharedNow();
    void client.json('GET', '/api/user').then(() => post({ bareMs: sharedNow() - start }));
  } else {
    disconnect(device);
    client.close();
    process.disconnect();
  }
});

await device.engine.pull();
post({ ready: true });

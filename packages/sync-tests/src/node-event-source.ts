/**
 * The browser's EventSource, as much of it as the sync engine uses (engine/platform.ts
 * EventSourceLike), over Node's fetch: named events and `message`, one connection, no reconnect.
 * The engine hears GET /api/sync/events through it exactly as it does in a browser tab.
 */
import type { EventSourceLike } from '@chronicler/sync-client';

export function nodeEventSource(url: string, headers: Record<string, string>): EventSourceLike {
  const listeners = new Map<string, ((event: { data?: string }) => void)[]>();
  const controller = new AbortController();
  const source: EventSourceLike & { readyState: number } = {
    readyState: 0,
    onerror: null,
    addEventListener(type, listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    close() {
      source.readyState = 2;
      controller.abort();
    },
  };
  const dispatch = (block: string) => {
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) return;
    for (const listener of listeners.get(type) ?? []) listener({ data: data.join('\n') });
  };
  void (async () => {
    try {
      const response = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: controller.signal });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      source.readyState = 1;
      const decoder = new TextDecoder();
      let buffered = '';
      const reader = response.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffered += decoder.decode(chunk.value, { stream: true });
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          dispatch(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
        }
      }
    } catch {
      // closed by us, or the server went away
    }
    if (source.readyState !== 2) {
      source.readyState = 2;
      source.onerror?.({});
    }
  })();
  return source;
}

/** GET /api/sync/events read over a real socket: inject waits for a response's end, and an event stream never ends. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

export interface EventStream {
  status: number;
  contentType: string | null;
  /** The next event (comments skipped); rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<ServerSentEvent>;
  close(): void;
}

export async function openEvents(base: string, cookie: string): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/sync/events`, { headers: { cookie }, signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  /** A read still under way when a `next` timed out: the next `next` takes its chunk, never loses it. */
  let reading: ReturnType<typeof reader.read> | null = null;
  const parse = (block: string): ServerSentEvent | null => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    return data.length > 0 ? { event, data: data.join('\n') } : null;
  };
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    async next(timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const parsed = parse(block);
          if (parsed) return parsed;
          end = buffered.indexOf('\n\n');
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event in time');
        let timer: NodeJS.Timeout | undefined;
        if (!reading) {
          reading = reader.read();
          reading.catch(() => undefined); // closed while nobody waits: not an unhandled rejection
        }
        const chunk = await Promise.race([
          reading,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('no event in time')), left);
          }),
        ]).finally(() => clearTimeout(timer));
        reading = null;
        if (chunk.done) throw new Error('stream ended');
        buffered += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

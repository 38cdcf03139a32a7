/**
 * Announcements between the instances on one PostgreSQL database (docs/server.md#postgresql):
 * NOTIFY through the pool, LISTEN on ONE dedicated connection per instance (a pooled connection
 * cannot keep a LISTEN: it goes back to the pool). Known limits, designed for:
 * - a payload is at most 8,000 bytes: callers send ids and seqs, never rows (sync/instance-bridge.ts);
 * - notifications sent while the listener is disconnected are lost: it reconnects on its own
 *   (backing off up to 5 s) and then calls `onReconnect`, so every local stream is poked to pull.
 */
import pg from 'pg';
import type { Pool } from 'pg';

/** The largest payload PostgreSQL takes (8,000 bytes), less room for safety. */
export const MAX_NOTIFY_BYTES = 7_900;

export interface InstanceChannel {
  /** Sends `payload` (≤ MAX_NOTIFY_BYTES of UTF-8) to every instance listening, this one included. */
  send(payload: string): Promise<void>;
  /** Hears every payload sent on the channel by any instance. */
  onMessage(listener: (payload: string) => void): void;
  /** Hears the listener reconnecting after it lost its connection (announcements may have been missed). */
  onReconnect(listener: () => void): void;
  /** Whether the LISTEN connection is up (tests, health). */
  readonly listening: boolean;
  close(): Promise<void>;
}

const CHANNEL = 'chronicler_instances';

export async function openInstanceChannel(url: string, pool: Pool): Promise<InstanceChannel> {
  const messageListeners: ((payload: string) => void)[] = [];
  const reconnectListeners: (() => void)[] = [];
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = 100;
  let timer: NodeJS.Timeout | null = null;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, application_name: 'chronicler-listener' });
    next.on('error', () => undefined); // reported by 'end' below
    next.on('notification', (message) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      for (const listener of messageListeners) {
        try {
          listener(message.payload);
        } catch {
          // one broken listener must not stop the others
        }
      }
    });
    next.on('end', () => {
      if (client === next) client = null;
      if (!closed) schedule();
    });
    await next.connect();
    await next.query(`listen ${CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  }

  function schedule(): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      connect().then(
        () => {
          retryMs = 100;
          for (const listener of reconnectListeners) listener();
        },
        () => {
          retryMs = Math.min(retryMs * 2, 5_000);
          schedule();
        },
      );
    }, retryMs);
    timer.unref();
  }

  await connect();
  return {
    async send(payload) {
      await pool.query('select pg_notify($1, $2)', [CHANNEL, payload]);
    },
    onMessage: (listener) => void messageListeners.push(listener),
    onReconnect: (listener) => void reconnectListeners.push(listener),
    get listening() {
      return client !== null;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = null;
      await last?.end().catch(() => undefined);
    },
  };
}

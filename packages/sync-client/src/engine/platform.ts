/**
 * The browser pieces the engine is given (docs/web.md#reading-and-writing-data): fetch,
 * EventSource, Web Locks, timers and the window/document event targets. Injected so the engine runs
 * in Node tests, in a bench page and in the app alike; `browserDefaults` picks the real ones when
 * an option is left out.
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data?: string }) => void): void;
  close(): void;
  onerror: ((event: unknown) => void) | null;
  readonly readyState: number;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface LocksLike {
  request(name: string, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
}

export interface TimersLike {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Where `online`, `offline`, `focus` and `visibilitychange` come from. */
export interface PlatformEvents {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export type DocumentEvents = PlatformEvents & { visibilityState?: string };

export const DEFAULT_TIMERS: TimersLike = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
};

export interface PlatformChoice {
  locks?: LocksLike | null;
  eventSource?: EventSourceFactory | null;
  platform?: { window?: PlatformEvents | null; document?: DocumentEvents | null };
}

/** An option given (even `null`) wins; otherwise the browser's own, when there is one. */
export function browserDefaults(choice: PlatformChoice): {
  locks: LocksLike | null;
  eventSource: EventSourceFactory | null;
  window: PlatformEvents | null;
  document: DocumentEvents | null;
} {
  return {
    locks: choice.locks !== undefined ? choice.locks : ((globalThis.navigator as { locks?: LocksLike } | undefined)?.locks ?? null),
    eventSource:
      choice.eventSource !== undefined
        ? choice.eventSource
        : typeof globalThis.EventSource === 'function'
          ? (url) => new EventSource(url, { withCredentials: true }) as unknown as EventSourceLike
          : null,
    window: choice.platform?.window !== undefined ? choice.platform.window : (globalThis as unknown as PlatformEvents),
    document:
      choice.platform?.document !== undefined
        ? choice.platform.document
        : typeof document !== 'undefined'
          ? (document as unknown as DocumentEvents)
          : null,
  };
}

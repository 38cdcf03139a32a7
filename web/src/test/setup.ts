// Every signed-in screen opens the user's Dexie database (app/SyncProvider): an in-memory IndexedDB.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '@chronicler/schema';
import { cleanup, configure } from '@testing-library/react';

// Screens are lazy chunks that open the user's IndexedDB first: give findBy*/waitFor time on a cold run.
configure({ asyncUtilTimeout: 4000 });

// jsdom lacks a few browser APIs Mantine relies on.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
// Mantine's autosize Textarea listens for web-font loads; jsdom has no document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
}
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
// CodeMirror measures text through ranges when it scrolls a position into view; jsdom lays nothing out.
const noRects = (): DOMRectList => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= noRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

// The toast stack is downloaded before the tests: in the app a toast is drawn plainly until it has
// arrived (components/PlainToasts, tested on its own), and a test that held a toast's element would
// see it replaced mid-test.
beforeAll(async () => {
  const { loadToastStack } = await import('@/components/ToastRegion');
  await loadToastStack();
});

// Tests stub GET /api/user with the answer they need: the browser carries the signed-in hint the
// server sets beside a session cookie, so the app asks (lib/session.ts). First-visit tests clear it.
beforeEach(() => {
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=1; Path=/`;
});

afterEach(() => {
  cleanup();
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; Path=/`;
  window.localStorage.clear();
  window.sessionStorage.clear();
});

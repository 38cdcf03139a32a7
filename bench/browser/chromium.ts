/** The sync benches' page (browser/page/entry.ts) in headless Chromium (lib/playwright.ts), signed in. */
import { type BenchBrowserPage as Page, launchChromium } from '../lib/playwright.ts';
import type { BenchApi } from './page/protocol.ts';

export { CHROMIUM, CHROMIUM_ARGS } from '../lib/playwright.ts';
export type { Page };

/** A page of the sync bench, signed in, with `__bench` ready; `call` runs one of its functions. */
export interface BenchPage {
  browserVersion: string;
  call<K extends keyof BenchApi>(name: K, ...args: Parameters<BenchApi[K]>): Promise<Awaited<ReturnType<BenchApi[K]>>>;
  /** Runs `work` while the page's main thread records a CPU profile; answers the profile JSON. */
  profile<T>(work: () => Promise<T>): Promise<{ result: T; profile: unknown }>;
  close(): Promise<void>;
}

export async function openBenchPage(serverUrl: string, sessionCookie: string): Promise<BenchPage> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const [name, value] = sessionCookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: serverUrl }]);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[page error] ${error.message ?? ''}`));
    await page.goto(`${serverUrl}/`);
    await page.waitForFunction('typeof globalThis.__bench === "object"', undefined, { timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    return {
      browserVersion: browser.version(),
      call: (name, ...args) =>
        page.evaluate(
          ([fn, fnArgs]) => {
            const bench = (globalThis as unknown as { __bench: Record<string, (...a: unknown[]) => Promise<unknown>> }).__bench;
            return bench[fn]!(...fnArgs);
          },
          [name, args] as [string, unknown[]],
        ) as never,
      async profile(work) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        const result = await work();
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
        await cdp.send('Profiler.disable');
        return { result, profile };
      },
      async close() {
        await cdp.detach().catch(() => undefined);
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

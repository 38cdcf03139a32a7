/**
 * Headless Debian Chromium for the sync benches, driven by Playwright from the e2e workspace
 * package (as bench/editor-typing.ts does). The few Playwright calls used are typed here, so this
 * package needs neither Playwright's types nor DOM types on the Node side.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { BENCH_DIR } from '../lib/setting.ts';
import type { BenchApi } from './page/protocol.ts';

interface CdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  detach(): Promise<void>;
}
export interface Page {
  goto(url: string): Promise<unknown>;
  waitForFunction(expression: string, arg?: unknown, options?: { timeout?: number }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  on(event: 'console' | 'pageerror', listener: (message: { text?: () => string; message?: string }) => void): void;
}
interface BrowserContext {
  addCookies(cookies: { name: string; value: string; url: string }[]): Promise<void>;
  newPage(): Promise<Page>;
  newCDPSession(page: Page): Promise<CdpSession>;
  close(): Promise<void>;
}
interface Browser {
  newContext(options?: Record<string, unknown>): Promise<BrowserContext>;
  version(): string;
  close(): Promise<void>;
}
interface Chromium {
  launch(options: { executablePath: string; headless: boolean; args: string[] }): Promise<Browser>;
}

const requireFromE2e = createRequire(path.join(BENCH_DIR, '../e2e/package.json'));
const { chromium } = requireFromE2e('@playwright/test') as { chromium: Chromium };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A page of the sync bench, signed in, with `__bench` ready; `call` runs one of its functions. */
export interface BenchPage {
  browserVersion: string;
  call<K extends keyof BenchApi>(name: K, ...args: Parameters<BenchApi[K]>): Promise<Awaited<ReturnType<BenchApi[K]>>>;
  /** Runs `work` while the page's main thread records a CPU profile; answers the profile JSON. */
  profile<T>(work: () => Promise<T>): Promise<{ result: T; profile: unknown }>;
  close(): Promise<void>;
}

export async function openBenchPage(serverUrl: string, sessionCookie: string): Promise<BenchPage> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
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

/**
 * Headless Debian Chromium for the benches that run code in a page, driven by Playwright from the
 * e2e workspace package (the bench has no Playwright of its own). The few calls those benches use
 * are typed here, so this package needs neither Playwright's types nor DOM types on the Node side.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { BENCH_DIR } from './setting.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A Playwright page, as far as the benches use it. */
export interface BenchBrowserPage {
  goto(url: string): Promise<unknown>;
  waitForFunction(expression: string, arg?: unknown, options?: { timeout?: number }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  addScriptTag(options: { content: string }): Promise<unknown>;
  on(event: 'console' | 'pageerror', listener: (message: { text?: () => string; message?: string }) => void): void;
}

export interface CdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  detach(): Promise<void>;
}

export interface BenchBrowserContext {
  addCookies(cookies: { name: string; value: string; url: string }[]): Promise<void>;
  newPage(): Promise<BenchBrowserPage>;
  newCDPSession(page: BenchBrowserPage): Promise<CdpSession>;
  close(): Promise<void>;
}

export interface BenchBrowser {
  newContext(options?: Record<string, unknown>): Promise<BenchBrowserContext>;
  newPage(): Promise<BenchBrowserPage>;
  version(): string;
  close(): Promise<void>;
}

const requireFromE2e = createRequire(path.join(BENCH_DIR, '../e2e/package.json'));
const { chromium } = requireFromE2e('@playwright/test') as {
  chromium: { launch(options: { executablePath: string; headless?: boolean; args: string[] }): Promise<BenchBrowser> };
};

/** Chromium with the benches' flags (headless Debian Chromium unless told otherwise). */
export function launchChromium(options: { executablePath?: string; headless?: boolean; args?: string[] } = {}): Promise<BenchBrowser> {
  return chromium.launch({ executablePath: options.executablePath ?? CHROMIUM, headless: options.headless ?? true, args: options.args ?? CHROMIUM_ARGS });
}

/**
 * Bundles `entry` (a file under bench/browser) for the browser as one minified script, loads it
 * into a fresh page of headless Chromium and answers what `run(arg)` answered there, with the
 * browser's version.
 */
export async function runInBundledPage<R, A>(entry: string, run: (arg: A) => R | Promise<R>, arg: A): Promise<{ version: string; result: R }> {
  const bundle = await build({
    entryPoints: [path.join(BENCH_DIR, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'error',
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    return { version: browser.version(), result: await page.evaluate(run, arg) };
  } finally {
    await browser.close();
  }
}

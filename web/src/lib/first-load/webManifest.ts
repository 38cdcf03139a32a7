/** Where the build writes the web app manifest (vite-plugin-pwa's file name). */
export const WEB_MANIFEST_HREF = '/manifest.webmanifest';

/**
 * Links the web app manifest, which index.html leaves out (vite.config.ts `deferWebManifest`):
 * linked there, Chromium fetched it and its 192 px icon during the first load, two requests beside
 * the first screen's own on a phone's six connections (docs/web.md#first-load). Installing the app
 * needs it only later; the browser reads a manifest linked at any time. Called after the first
 * screen (app/App.tsx).
 */
export function linkWebManifest(doc: Document = document, built = import.meta.env.PROD): void {
  // The dev server has no manifest (vite-plugin-pwa's dev options are off).
  if (!built || doc.querySelector('link[rel="manifest"]')) return;
  const link = doc.createElement('link');
  link.rel = 'manifest';
  link.href = WEB_MANIFEST_HREF;
  doc.head.appendChild(link);
}

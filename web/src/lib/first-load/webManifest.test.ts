import { describe, expect, it } from 'vitest';
import { WEB_MANIFEST_HREF, linkWebManifest } from './webManifest';

describe('the web app manifest, linked after the first screen', () => {
  it('is linked once, in the built app only', () => {
    document.head.querySelectorAll('link[rel="manifest"]').forEach((link) => link.remove());
    linkWebManifest(document, false);
    expect(document.head.querySelectorAll('link[rel="manifest"]')).toHaveLength(0);
    linkWebManifest(document, true);
    linkWebManifest(document, true);
    const links = document.head.querySelectorAll<HTMLLinkElement>('link[rel="manifest"]');
    expect(links).toHaveLength(1);
    expect(new URL(links[0]!.href).pathname).toBe(WEB_MANIFEST_HREF);
  });
});

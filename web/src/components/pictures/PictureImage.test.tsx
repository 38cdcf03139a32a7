import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Blob as NodeBlob } from 'node:buffer';
import { act, screen, waitFor } from '@testing-library/react';
import { formatPictureRef, storeLocalPicture } from '@chronicler/sync-client';
import { serverSeries } from '@chronicler/sync-client/testing';
import { stubFetch } from '@/test/fetch-stub';
import { renderWithDb } from '@/test/renderWithDb';
import { PictureImage } from './PictureImage';

const SERIES = serverSeries();
const webp = (seed: number) => new NodeBlob([new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '), new Uint8Array([seed])], { type: 'image/webp' }) as unknown as Blob;

let created = 0;
beforeEach(() => {
  created = 0;
  URL.createObjectURL = vi.fn(() => `blob:picture-${++created}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PictureImage', () => {
  it('shows a URL as it is, lazily', () => {
    renderWithDb(<PictureImage value="https://example.com/cover.jpg" seriesId={SERIES.id} alt="Cover" />);
    const img = screen.getByRole('img', { name: 'Cover' });
    expect(img.getAttribute('src')).toBe('https://example.com/cover.jpg');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('decoding')).toBe('async');
  });

  it('shows a picture kept on the device at once, and lets its object URL go when no one shows it', async () => {
    const { db, unmount } = renderWithDb(<p>nothing yet</p>);
    const display = await storeLocalPicture(db, { blob: webp(1), type: 'image/webp', width: 10, height: 10, seriesId: SERIES.id });
    const thumb = await storeLocalPicture(db, { blob: webp(2), type: 'image/webp', width: 2, height: 2, seriesId: SERIES.id });
    unmount();
    const value = formatPictureRef({ display, thumb });
    const view = renderWithDb(
      <>
        <PictureImage value={value} seriesId={SERIES.id} alt="Portrait" />
        <PictureImage value={value} seriesId={SERIES.id} alt="Portrait again" />
      </>,
      { db },
    );
    await waitFor(() => expect(screen.getByRole('img', { name: 'Portrait' }).getAttribute('src')).toBe('blob:picture-1'));
    // One object URL, shared.
    expect(screen.getByRole('img', { name: 'Portrait again' }).getAttribute('src')).toBe('blob:picture-1');
    expect(URL.createObjectURL).toHaveBeenCalledTimes(1);
    vi.useFakeTimers();
    view.unmount();
    act(() => vi.advanceTimersByTime(5_000));
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:picture-1');
  });

  it('draws the placeholder for a picture not on the device yet and asks the server for it', async () => {
    const { calls } = stubFetch({ [`GET /api/series/${SERIES.id}/media/${'a'.repeat(64)}`]: { status: 404 } });
    renderWithDb(<PictureImage value={formatPictureRef({ display: 'b'.repeat(64), thumb: 'a'.repeat(64) })} seriesId={SERIES.id} alt="Cover" fallback={<span>no picture</span>} />);
    expect(screen.getByText('no picture')).toBeTruthy();
    await waitFor(() => expect(calls.map((c) => c.path)).toContain(`/api/series/${SERIES.id}/media/${'a'.repeat(64)}`));
    expect(screen.queryByRole('img')).toBeNull();
  });
});

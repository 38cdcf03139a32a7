import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Blob as NodeBlob } from 'node:buffer';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { parsePictureRef } from '@chronicler/sync-client';
import { serverSeries } from '@chronicler/sync-client/testing';
import { renderWithDb } from '@/test/renderWithDb';
import { Modal } from '@/lib/first-load';
import { PictureField } from './PictureField';
import { type DecodedPicture, type MadePicture, checkPictureFile } from './model/pipeline';
import type { PictureShape } from './model/crop';

const SERIES = serverSeries();

/** A PNG's first bytes: its signature and an IHDR chunk of the given size. */
function pngFile(width: number, height: number, name = 'photo.png'): File {
  const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), 0x49, 0x48, 0x44, 0x52, ...be32(width), ...be32(height), 8, 6, 0, 0, 0]);
  return new File([bytes], name, { type: 'image/png' });
}

/** Decodes as the browser would, to the size the file's header tells (jsdom has no image decoder). */
async function decode(file: Blob): Promise<DecodedPicture> {
  const { size } = await checkPictureFile(file);
  return { source: {} as CanvasImageSource, size: size!, close: () => undefined };
}

/** Pictures as the canvas would make them: WebP bytes (Node's Blob: fake-indexeddb clones it). */
function webp(seed: number, width: number, height: number): MadePicture {
  const bytes = new Uint8Array([...new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '), seed, width & 255, height & 255]);
  return { blob: new NodeBlob([bytes], { type: 'image/webp' }) as unknown as Blob, type: 'image/webp', width, height };
}

function Harness({ shape = 'cover', gated = true, onValue }: { shape?: PictureShape; gated?: boolean; onValue?: (v: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <PictureField
      label="Cover"
      shape={shape}
      value={value}
      onChange={(v) => {
        setValue(v);
        onValue?.(v);
      }}
      seriesId={SERIES.id}
      gated={gated}
      decode={decode}
      make={async (_decoded, rect) => ({ display: webp(1, Math.round(rect.width), Math.round(rect.height)), thumb: webp(2, 32, 48) })}
    />
  );
}

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:picture');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.restoreAllMocks());

const crop = () => screen.getByTestId('crop-frame').getAttribute('data-crop')!.split(',').map(Number);

describe('PictureField', () => {
  it('shows the upgrade pattern to an author whose plan lacks multimedia', async () => {
    renderWithDb(<Harness />, { plan: 'apprentice' });
    expect(await screen.findByText('Feature Locked')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    expect(screen.queryByRole('button', { name: 'Choose picture' })).toBeNull();
  });

  it('refuses a file that is not a picture by its bytes, whatever its name', async () => {
    renderWithDb(<Harness />, { plan: 'wordsmith' });
    const input = await screen.findByLabelText('Choose a picture file for the cover');
    const html = new File(['<!doctype html><script>alert(1)</script>'], 'cover.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [html] } });
    expect((await screen.findByRole('alert')).textContent).toBe('This file is not a picture Chronicler can keep. Choose a JPEG, PNG, WebP or GIF image.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('refuses a picture too large to decode before decoding it', async () => {
    renderWithDb(<Harness />, { plan: 'wordsmith' });
    const input = await screen.findByLabelText('Choose a picture file for the cover');
    fireEvent.change(input, { target: { files: [pngFile(50_000, 50_000)] } });
    expect((await screen.findByRole('alert')).textContent).toMatch(/too large \(50000 × 50000 pixels\)/);
  });

  it('crops with the keyboard, keeps the picture on the device and sets the field', async () => {
    const values: string[] = [];
    const { db } = renderWithDb(<Harness onValue={(v) => values.push(v)} />, { plan: 'wordsmith' });
    await db.series.put(SERIES);
    const input = await screen.findByLabelText('Choose a picture file for the cover');
    fireEvent.change(input, { target: { files: [pngFile(1200, 1200)] } });

    const stage = await screen.findByRole('group', { name: 'Crop the cover' });
    // A 2:3 cover in a square picture: full height, centred.
    expect(crop()).toEqual([200, 0, 800, 1200]);
    stage.focus();
    // A step is a twentieth of the crop's width; Shift moves five.
    fireEvent.keyDown(stage, { key: 'ArrowRight' });
    expect(crop()).toEqual([240, 0, 800, 1200]);
    fireEvent.keyDown(stage, { key: 'ArrowLeft', shiftKey: true });
    expect(crop()).toEqual([40, 0, 800, 1200]);
    fireEvent.keyDown(stage, { key: 'ArrowLeft', shiftKey: true });
    expect(crop()).toEqual([0, 0, 800, 1200]); // stops at the picture's edge
    fireEvent.keyDown(stage, { key: '+' });
    const [x, y, w, h] = crop() as [number, number, number, number];
    expect(w).toBeLessThan(800);
    expect(h).toBeLessThan(1200);
    expect(w / h).toBeCloseTo(2 / 3, 2);
    fireEvent.keyDown(stage, { key: 'ArrowUp' });
    expect(crop()[1]).toBeLessThan(y);
    expect(crop()[0]).toBe(x);
    fireEvent.keyDown(stage, { key: '-' });
    fireEvent.keyDown(stage, { key: '-' });
    expect(crop()[2]).toBe(800); // zoomed out no further than the whole height

    fireEvent.click(screen.getByRole('button', { name: 'Use picture' }));
    await waitFor(() => expect(values).toHaveLength(1));
    const ref = parsePictureRef(values[0]);
    expect(ref).not.toBeNull();
    const stored = await db.pictures.get(ref!.display);
    expect(stored).toMatchObject({ uploaded: 0, seriesId: SERIES.id, type: 'image/webp' });
    expect(await screen.findByTestId('picture-on-device')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('takes a pasted picture, and Remove empties the field', async () => {
    const values: string[] = [];
    renderWithDb(<Harness shape="portrait" onValue={(v) => values.push(v)} />, { plan: 'wordsmith' });
    const field = await screen.findByTestId('picture-field');
    fireEvent.paste(field, { clipboardData: { files: [pngFile(400, 300)] } });
    await screen.findByRole('group', { name: 'Crop the portrait' });
    // Square in a 400 × 300 picture.
    expect(crop()).toEqual([50, 0, 300, 300]);
    fireEvent.click(screen.getByRole('button', { name: 'Use picture' }));
    await waitFor(() => expect(values).toHaveLength(1));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(values.at(-1)).toBe('');
  });

  it('Escape in the crop dialog closes it, not the form’s dialog under it', async () => {
    let formClosed = false;
    renderWithDb(
      <Modal opened onClose={() => (formClosed = true)} title="Edit Series">
        <Harness />
      </Modal>,
      { plan: 'wordsmith' },
    );
    const input = await screen.findByLabelText('Choose a picture file for the cover');
    fireEvent.change(input, { target: { files: [pngFile(600, 600)] } });
    const stage = await screen.findByRole('group', { name: 'Crop the cover' });
    stage.focus();
    fireEvent.keyDown(stage, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Crop the cover' })).toBeNull());
    expect(formClosed).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Edit Series' })).toBeTruthy();
  });
});

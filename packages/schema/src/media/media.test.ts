import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_PICTURE_SIDE,
  containsMarkup,
  fitsAllowance,
  formatBytes,
  formatMediaReference,
  inspectImage,
  mediaHashesIn,
  parseMediaReference,
  pictureAllowanceBytes,
  pictureMaxBytes,
  sniffImageType,
  stripMetadata,
  LARGEST_PICTURE_BYTES,
} from './index.ts';
import {
  GIF_HTML_POLYGLOT,
  GPS_MARKER,
  HTML_FILE,
  SVG_FILE,
  WEBP_ALPHA,
  WEBP_LOSSLESS,
  WEBP_LOSSY,
  concatBytes,
  exifGpsSegment,
  gifBytes,
  jpegBytes,
  jpegComment,
  pngBytes,
  pngChunk,
  pngClaiming,
  pngText,
  webpWithMetadata,
} from './test-pictures.ts';

const text = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const ok = (bytes: Uint8Array) => {
  const inspection = inspectImage(bytes);
  if (!inspection.ok) throw new Error(`refused: ${inspection.problem}`);
  return inspection;
};

describe('media references', () => {
  const a = 'a'.repeat(64);
  const b = '0123456789abcdef'.repeat(4);

  it('reads a display picture and its thumbnail, and writes them back the same', () => {
    expect(parseMediaReference(`media:${a}`)).toEqual({ display: a, thumb: null });
    expect(parseMediaReference(`media:${a}#thumb=${b}`)).toEqual({ display: a, thumb: b });
    expect(formatMediaReference({ display: a, thumb: b })).toBe(`media:${a}#thumb=${b}`);
    expect(mediaHashesIn(`media:${a}#thumb=${b}`)).toEqual([a, b]);
  });

  it('is not a reference when it is a URL, empty, upper case, short or has anything extra', () => {
    for (const value of [null, undefined, '', 'https://example.com/a.png', `media:${a.toUpperCase()}`, `media:${a.slice(1)}`, `media:${a}#thumb=`, `media:${a}#thumb=${b}x`, `media:${a}?x`]) {
      expect(parseMediaReference(value)).toBeNull();
      expect(mediaHashesIn(value)).toEqual([]);
    }
  });

  it('round-trips every pair of hashes', () => {
    const hash = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(hash, fc.option(hash, { nil: null }), (display, thumb) => {
        expect(parseMediaReference(formatMediaReference({ display, thumb }))).toEqual({ display, thumb });
      }),
    );
  });
});

describe('sniffing by the bytes', () => {
  it('knows the four accepted types by their magic numbers, whatever a file is called', () => {
    expect(sniffImageType(jpegBytes())).toBe('image/jpeg');
    expect(sniffImageType(pngBytes())).toBe('image/png');
    expect(sniffImageType(WEBP_LOSSY)).toBe('image/webp');
    expect(sniffImageType(gifBytes())).toBe('image/gif');
  });

  it('reads the size of real tiny pictures of each type from their headers', () => {
    expect(ok(jpegBytes({ width: 16, height: 8 }))).toMatchObject({ type: 'image/jpeg', width: 16, height: 8, metadata: [] });
    expect(ok(pngBytes({ width: 3, height: 5 }))).toMatchObject({ type: 'image/png', width: 3, height: 5, metadata: [] });
    for (const webp of [WEBP_LOSSY, WEBP_LOSSLESS, WEBP_ALPHA]) expect(ok(webp)).toMatchObject({ type: 'image/webp', width: 1, height: 1, metadata: [] });
    expect(ok(gifBytes())).toMatchObject({ type: 'image/gif', width: 1, height: 1, metadata: [] });
  });

  it('refuses an HTML page and an SVG named .png: not an image', () => {
    expect(inspectImage(HTML_FILE)).toMatchObject({ ok: false, problem: 'not-an-image' });
    expect(inspectImage(SVG_FILE)).toMatchObject({ ok: false, problem: 'not-an-image' });
    expect(inspectImage(new Uint8Array())).toMatchObject({ ok: false, problem: 'not-an-image' });
  });

  it('refuses a GIF that is also an HTML page, and a picture with a page after its end', () => {
    expect(inspectImage(GIF_HTML_POLYGLOT)).toMatchObject({ ok: false, problem: 'polyglot', type: 'image/gif' });
    expect(inspectImage(pngBytes({ extraChunks: [pngText('Comment', '<SCRIPT src=//evil.example></SCRIPT>')] }))).toMatchObject({ ok: false, problem: 'polyglot' });
    expect(inspectImage(jpegBytes({ extraSegments: [jpegComment('<svg onload=alert(1)>')] }))).toMatchObject({ ok: false, problem: 'polyglot' });
    expect(inspectImage(concatBytes(pngBytes(), HTML_FILE))).toMatchObject({ ok: false, problem: 'polyglot' });
    expect(inspectImage(concatBytes(jpegBytes(), Uint8Array.of(1, 2, 3)))).toMatchObject({ ok: false, problem: 'polyglot' });
  });

  it('refuses a picture cut short, whatever its type', () => {
    for (const whole of [jpegBytes(), pngBytes(), WEBP_LOSSY, WEBP_ALPHA, gifBytes()]) {
      for (const cut of [whole.length - 1, Math.floor(whole.length / 2), 13]) {
        expect(inspectImage(whole.subarray(0, cut)), `${sniffImageType(whole)} cut at ${cut}`).toMatchObject({ ok: false, problem: 'damaged' });
      }
    }
  });

  it('never throws on arbitrary bytes behind a real magic number', () => {
    const magic = fc.constantFrom(jpegBytes().subarray(0, 3), pngBytes().subarray(0, 16), WEBP_ALPHA.subarray(0, 16), gifBytes().subarray(0, 10));
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 200 }), (head, tail) => {
        const inspection = inspectImage(concatBytes(head, tail));
        if (inspection.ok) expect(inspection.width * inspection.height).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the decompression-bomb guard', () => {
  it('refuses a tiny PNG whose header claims 50,000 × 50,000 pixels, from the header alone', () => {
    const bomb = pngClaiming(50_000, 50_000);
    expect(bomb.length).toBeLessThan(200);
    expect(inspectImage(bomb)).toMatchObject({ ok: false, problem: 'too-many-pixels', width: 50_000, height: 50_000 });
  });

  it('holds the side and the area limits, and the frames of a GIF', () => {
    expect(inspectImage(pngClaiming(MAX_PICTURE_SIDE, 4000))).toMatchObject({ ok: true });
    expect(inspectImage(pngClaiming(MAX_PICTURE_SIDE + 1, 1))).toMatchObject({ ok: false, problem: 'too-many-pixels' });
    expect(inspectImage(pngClaiming(8000, 8000))).toMatchObject({ ok: false, problem: 'too-many-pixels' });
    const gif = gifBytes().slice();
    // The image descriptor (after header, colour table and graphic control): 1×1 → 60,000×60,000.
    const descriptor = gif.indexOf(0x2c, 19);
    gif.set([0x60, 0xea, 0x60, 0xea], descriptor + 5);
    expect(inspectImage(gif)).toMatchObject({ ok: false, problem: 'too-many-pixels' });
    const jpeg = jpegBytes().slice();
    // SOF0's height and width (after FF C0, its length and the precision): 8×8 → 60,000×60,000.
    const frame = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xc0);
    jpeg.set([0xea, 0x60, 0xea, 0x60], frame + 5);
    expect(inspectImage(jpeg)).toMatchObject({ ok: false, problem: 'too-many-pixels', width: 60_000, height: 60_000 });
  });
});

describe('stripping metadata', () => {
  it('takes the EXIF segment with its GPS position out of a JPEG, keeping JFIF and the picture', () => {
    const withGps = jpegBytes({ extraSegments: [exifGpsSegment(), jpegComment('taken at home')] });
    expect(text(withGps)).toContain(GPS_MARKER);
    const inspection = ok(withGps);
    expect(inspection.metadata.map((m) => m.name)).toEqual(['EXIF', 'comment']);
    const stripped = stripMetadata(withGps, inspection);
    expect(text(stripped)).not.toContain(GPS_MARKER);
    expect(text(stripped)).not.toContain('Exif');
    expect(text(stripped)).not.toContain('taken at home');
    expect(stripped).toEqual(jpegBytes());
    expect(ok(stripped).metadata).toEqual([]);
  });

  it('takes text, time and EXIF chunks out of a PNG', () => {
    const clean = pngBytes();
    const dirty = pngBytes({ extraChunks: [pngText('Author', 'me'), pngChunk('tIME', Uint8Array.of(7, 234, 1, 1, 0, 0, 0)), pngChunk('eXIf', exifGpsSegment().subarray(10))] });
    const inspection = ok(dirty);
    expect(inspection.metadata.map((m) => m.name)).toEqual(['tEXt', 'tIME', 'eXIf']);
    expect(stripMetadata(dirty, inspection)).toEqual(clean);
  });

  it("takes EXIF and XMP out of a WebP and clears the header's flags for them", () => {
    const dirty = webpWithMetadata();
    const inspection = ok(dirty);
    expect(inspection.metadata.map((m) => m.name)).toEqual(['EXIF', 'XMP']);
    const stripped = stripMetadata(dirty, inspection);
    expect(stripped).toEqual(WEBP_ALPHA);
    expect(text(stripped)).not.toContain(GPS_MARKER);
  });

  it("takes a GIF's comment out", () => {
    const dirty = gifBytes('shot on holiday');
    expect(stripMetadata(dirty, ok(dirty))).toEqual(gifBytes());
  });

  it('answers the same bytes when there is nothing to remove', () => {
    const clean = jpegBytes();
    expect(stripMetadata(clean, ok(clean))).toBe(clean);
  });
});

describe('markup search', () => {
  it('finds tags in any case and nothing in plain bytes', () => {
    const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
    expect(containsMarkup(bytes('xx<ScRiPt>'))).toBe(true);
    expect(containsMarkup(bytes('a < b and <br>'))).toBe(false);
    expect(containsMarkup(bytes('<scrip'))).toBe(false);
  });
});

describe('plan limits for pictures', () => {
  it('takes the allowance from the plan table and one picture from its own column', () => {
    expect(pictureAllowanceBytes('apprentice')).toBe(5 * 1024 ** 3);
    expect(pictureAllowanceBytes('legendary')).toBe(100 * 1024 ** 3);
    expect(pictureMaxBytes('wordsmith')).toBe(10 * 1024 ** 2);
    expect(LARGEST_PICTURE_BYTES).toBe(pictureMaxBytes('legendary'));
  });

  it('fits a picture up to the last byte of the allowance and not one past it', () => {
    const allowance = pictureAllowanceBytes('wordsmith');
    expect(fitsAllowance('wordsmith', allowance - 100, 100)).toBe(true);
    expect(fitsAllowance('wordsmith', allowance - 100, 101)).toBe(false);
    expect(fitsAllowance('wordsmith', 0, allowance + 1)).toBe(false);
  });

  it('writes sizes as the plan table does', () => {
    expect(formatBytes(25 * 1024 ** 3)).toBe('25 GB');
    expect(formatBytes(1.5 * 1024 ** 2)).toBe('1.5 MB');
    expect(formatBytes(300 * 1024)).toBe('300 KB');
    expect(formatBytes(12)).toBe('12 bytes');
  });
});

/**
 * A two-book manuscript with emphasis and paragraphs in many scripts, exported in every format and
 * read back with outside readers: pdftotext and pdffonts (poppler) for PDF, mammoth for DOCX,
 * EPUBCheck for EPUB. No export may lose a character or an emphasis (docs/web.md, "Export").
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXPORT_PROFILE, type ExportFormat, type ExportProfile } from '@chronicler/schema';
import type { FontFace } from './pdf';
import { type ExportFile, type ExportRequest, renderExport } from './render';
import * as f from './testing/fixtures';
import { diskFonts } from './testing/fonts';
import { SAMPLES, books, chapters, series } from './testing/many-scripts';

const dir = mkdtempSync(join(tmpdir(), 'chronicler-scripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function request(format: ExportFormat, profile: Partial<ExportProfile> = {}, chapterRows = chapters): ExportRequest {
  return { what: 'manuscript', series, author: 'Ada Quill', books, chapters: chapterRows, profile: { ...DEFAULT_EXPORT_PROFILE, ...profile, format } };
}

function save(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** Direction marks and embeddings a reader may add around right-to-left text. */
const DIRECTION_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Skin-tone modifiers: the monochrome emoji font draws the emoji without them (the notice says so). */
const SKIN_TONES = /[\u{1f3fb}-\u{1f3ff}]/gu;
const letters = (text: string) => [...text.replace(DIRECTION_MARKS, '').replace(/\s+/g, '')].sort().join('');
const compact = (text: string) => text.replace(DIRECTION_MARKS, '').replace(/\s+/g, '');

describe('PDF in many scripts', () => {
  let file: ExportFile;
  let text: string;
  const faces: FontFace[] = [];
  beforeAll(async () => {
    file = await renderExport(request('pdf'), diskFonts(faces));
    const path = save('scripts.pdf', file.bytes);
    text = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
  }, 120_000);

  it('prints every paragraph of every script, read back by pdftotext', () => {
    const all = compact(text);
    for (const sample of SAMPLES) {
      const expected = sample.visible.replace(SKIN_TONES, '');
      if (sample.rtl) {
        // pdftotext puts right-to-left lines back in logical order itself, but a ligature (Arabic
        // lam-alef) comes out with its letters in visual order: compare the line's letters, and
        // the words no ligature touches as they are.
        const line = text.split('\n').find((l) => l.includes(sample.italic ?? sample.bold ?? ''));
        expect(line, sample.script).toBeDefined();
        expect(letters(line!), sample.script).toBe(letters(expected));
      } else expect(all, sample.script).toContain(compact(expected));
    }
    expect(all).toContain(compact('Ωκεανός — Океан'));
    expect(all).toContain(compact('海 · 海 · 바다'));
  });

  it('breaks Chinese between characters, never before a closing mark, and no line is wider than the page', () => {
    const chinese = SAMPLES.find((s) => s.script === 'Chinese')!.visible;
    const lines = text.split('\n').filter((l) => l !== '' && chinese.includes(l.trim()));
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.trim()).not.toMatch(/^[，。」]/u);
    expect(lines.map((l) => l.trim()).join('')).toBe(chinese);
  });

  it('embeds the real italic, bold and bold-italic faces, and the CJK, Arabic/Hebrew and emoji fonts, as subsets', () => {
    const fonts = execFileSync('pdffonts', [save('fonts.pdf', file.bytes)], { encoding: 'utf8' });
    for (const face of ['DejaVuSerif-', 'DejaVuSerif-Italic-', 'DejaVuSerif-Bold-', 'DejaVuSerif-BoldItalic-', 'DejaVuSans-', 'NotoSansSC-Regular-', 'NotoSansJP-Bold-', 'NotoSansKR-Regular-', 'NotoEmoji-Regular-']) {
      expect(fonts, face).toMatch(new RegExp(`^${face}\\d+\\s+CID TrueType\\s+Identity-H\\s+yes\\s+\\S+\\s+yes`, 'm'));
    }
    // Subsets: the whole manuscript is far smaller than one CJK font (10 MB).
    expect(file.bytes.length).toBeLessThan(400_000);
  });

  it('tells the author that emoji print in black and white, and of nothing else', () => {
    expect(file.notices).toHaveLength(1);
    expect(file.notices[0]).toMatch(/Emoji are printed in black and white/);
  });

  it('fetches the CJK and emoji fonts only for a manuscript that needs them', async () => {
    expect(faces).toEqual(expect.arrayContaining(['NotoSansSC-Regular', 'NotoSansJP-Bold', 'NotoSansKR-Regular', 'NotoEmoji-Regular']));
    const latinOnly: FontFace[] = [];
    await renderExport({ what: 'manuscript', series: f.series, author: 'Ada Quill', books: f.books, chapters: f.chapters, profile: { ...DEFAULT_EXPORT_PROFILE, format: 'pdf' } }, diskFonts(latinOnly));
    expect(latinOnly.filter((face) => face.startsWith('Noto'))).toEqual([]);
  });

  it('prints a character no font has as □ and names it in a notice, keeping the rest of the paragraph', async () => {
    const rows = [{ ...chapters[0]!, content: 'The glyph 𓀀 stood *alone* here.' }];
    const out = await renderExport(request('pdf', {}, rows), diskFonts());
    const read = execFileSync('pdftotext', ['-enc', 'UTF-8', save('missing.pdf', out.bytes), '-'], { encoding: 'utf8' });
    expect(read).toContain('The glyph □ stood alone here.');
    expect(out.notices.join(' ')).toMatch(/One character no bundled font can print shows as □ in the PDF: 𓀀 \(U\+13000\)/);
  });

  it('sets the sans profile too, with Arabic joined from DejaVu Sans', async () => {
    const out = await renderExport(request('pdf', { font: 'sans' }), diskFonts());
    const read = compact(execFileSync('pdftotext', ['-enc', 'UTF-8', save('sans.pdf', out.bytes), '-'], { encoding: 'utf8' }));
    expect(read).toContain(compact(SAMPLES[0]!.visible));
    expect(read).toContain('الريح');
  });
});

describe('DOCX in many scripts', () => {
  it('keeps every character, italic and bold runs, and marks right-to-left paragraphs (mammoth)', async () => {
    const file = await renderExport(request('docx'), diskFonts());
    const buffer = Buffer.from(file.bytes);
    const { value: raw } = await mammoth.extractRawText({ buffer });
    const paragraphs = raw.split('\n').map((p) => p.trim());
    for (const sample of SAMPLES) expect(paragraphs, sample.script).toContain(sample.visible);
    const { value: html } = await mammoth.convertToHtml({ buffer });
    for (const sample of SAMPLES) {
      if (sample.italic !== undefined && sample.italic === sample.bold) expect(html, sample.script).toContain(`<strong><em>${sample.italic}</em></strong>`);
      else {
        if (sample.italic) expect(html, sample.script).toContain(`<em>${sample.italic}</em>`);
        if (sample.bold) expect(html, sample.script).toContain(`<strong>${sample.bold}</strong>`);
      }
    }
    expect(html).toContain('Two * three is six, and <em>this</em> stays — 5 * 5.');
    const xml = strFromU8(unzipSync(file.bytes)['word/document.xml']!);
    expect((xml.match(/<w:bidi\/>/g) ?? []).length).toBe(SAMPLES.filter((s) => s.rtl).length);
    expect(xml).toContain('w:eastAsia="ja-JP"');
  });
});

describe('EPUB in many scripts', () => {
  it('passes EPUBCheck with <em>, <strong>, dir="rtl" and lang on the paragraphs that need them', async () => {
    const file = await renderExport(request('epub'), diskFonts());
    const check = spawnSync('java', ['-jar', '/usr/share/java/epubcheck.jar', save('scripts.epub', file.bytes)], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toMatch(/No errors or warnings detected/);
    const entries = unzipSync(file.bytes);
    const body = Object.keys(entries).filter((n) => /chapter-\d+\.xhtml$/.test(n)).map((n) => strFromU8(entries[n]!)).join('\n');
    expect(body).toContain('Ça <em>déjà</em> vu — <strong>Ærøskøbing</strong>');
    expect(body).toContain('<strong><em>Никогда</em></strong>');
    expect(body).toContain('Two * three is six, and <em>this</em> stays — 5 * 5.');
    expect(body).toMatch(/<p class="opening" dir="rtl">قالت <em>الريح<\/em>/);
    expect(body).toMatch(/<p lang="ja" xml:lang="ja">彼女は<strong>静かに<\/strong>/);
    for (const sample of SAMPLES) expect(body.replace(/<[^>]+>/g, ''), sample.script).toContain(sample.visible);
  }, 180_000);
});

describe('Markdown and plain text in many scripts', () => {
  it('Markdown writes *italic* and **bold** and escapes a lone asterisk; plain text keeps the words without emphasis', async () => {
    const md = new TextDecoder().decode((await renderExport(request('markdown'), diskFonts())).bytes);
    expect(md).toContain('Ça *déjà* vu — **Ærøskøbing**, Łódź');
    expect(md).toContain('Two \\* three is six, and *this* stays — 5 \\* 5.');
    expect(md).toContain('«***Никогда***»');
    expect(md).toContain('قالت *الريح* للبحر');
    const txt = new TextDecoder().decode((await renderExport(request('txt'), diskFonts())).bytes);
    for (const sample of SAMPLES) expect(txt, sample.script).toContain(`\n${sample.visible}\n`);
  });
});

/**
 * Round trips of every export format through the tools authors' readers use: DOCX read back with
 * mammoth, PDF text through poppler's pdftotext, EPUB through EPUBCheck (both installed by .ci/run).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import mammoth from 'mammoth';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXPORT_PROFILE, type ExportFormat, type ExportProfile, chapterBlocks } from '@chronicler/schema';
import { type ExportRequest, renderExport } from './render';
import { diskFonts } from './testing/fonts';
import * as f from './testing/fixtures';

const dir = mkdtempSync(join(tmpdir(), 'chronicler-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const loadFont = diskFonts();

function manuscript(format: ExportFormat, profile: Partial<ExportProfile> = {}): ExportRequest {
  return { what: 'manuscript', series: f.series, author: 'Ada Quill', books: f.books, chapters: f.chapters, profile: { ...DEFAULT_EXPORT_PROFILE, ...profile, format } };
}

/** Every paragraph of the series, in reading order (book 1 chapters 1, 2, then book 2). */
const PARAGRAPHS = [f.chapters[1]!, f.chapters[0]!, f.chapters[2]!].flatMap((c) => chapterBlocks(c.content).flatMap((b) => (b.kind === 'paragraph' ? [b.text] : [])));
const squash = (s: string) => s.replace(/\s+/g, ' ');

function save(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('DOCX export', () => {
  it('reads back with every paragraph in order, first paragraphs, curly quotes and em dashes intact', async () => {
    const file = await renderExport(manuscript('docx'), loadFont);
    expect(file.fileName).toBe('The Glass Kingdoms.docx');
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(file.bytes) });
    const paragraphs = value.split('\n').map((p) => p.trim()).filter(Boolean);
    const body = paragraphs.filter((p) => PARAGRAPHS.includes(p));
    expect(body).toEqual(PARAGRAPHS);
    expect(paragraphs).toContain('“Where’s the crown?” asked Ilse — too late.');
    // Title page: author and a rounded word count; chapters and the scene-break marker in order.
    expect(paragraphs.slice(0, 2)).toEqual(['Ada Quill', 'about 100 words']);
    const order = ['The Salt Crown', 'Salt and Ash', 'The Harbour', '#', 'The Iron Tide', 'Iron Rising'].map((t) => paragraphs.indexOf(t));
    expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]!))).toBe(true);
  });

  it('writes standard manuscript format: 12 pt, double spacing, 1-inch margins, first-line indents, chapters on new pages', async () => {
    const file = await renderExport(manuscript('docx'), loadFont);
    const xml = strFromU8(unzipSync(file.bytes)['word/document.xml']!);
    const styles = strFromU8(unzipSync(file.bytes)['word/styles.xml']!);
    expect(styles).toContain('w:sz w:val="24"');
    expect(styles).toMatch(/w:line="480"/);
    expect(xml).toMatch(/w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/);
    // The body's first-line indent is the default paragraph's; centred lines take it off.
    expect(styles).toMatch(/<w:pPrDefault>.*w:firstLine="720".*<\/w:pPrDefault>/s);
    expect(xml).toMatch(/<w:ind w:firstLine="0"\/><w:jc w:val="center"\/>/);
    expect((xml.match(/<w:pageBreakBefore\/>/g) ?? []).length).toBe(f.chapters.length + f.books.length);
  });
});

/** Debian's epubcheck is a jar (its /usr/bin link needs binfmt support, which containers lack). */
function epubcheck(path: string) {
  return spawnSync('java', ['-jar', '/usr/share/java/epubcheck.jar', path], { encoding: 'utf8' });
}

function pdfText(bytes: Uint8Array): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', save(`m-${Math.random()}.pdf`, bytes), '-'], { encoding: 'utf8' });
}

describe('PDF export', () => {
  it("holds every chapter's words, curly quotes and dashes, with chapters on new pages and page numbers", async () => {
    const file = await renderExport(manuscript('pdf'), loadFont);
    const text = pdfText(file.bytes);
    const flat = squash(text);
    for (const paragraph of PARAGRAPHS) expect(flat).toContain(paragraph);
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    // Title page, two book pages, three chapters.
    expect(pages).toHaveLength(6);
    expect(pages[3]).toContain('The Harbour');
    expect(pages[3]).toMatch(/\n\s*4\s*$/);
  });

  it('prints long paragraphs wrapped without losing a word, in the sans font too', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const request = manuscript('pdf', { font: 'sans', spacing: 'single' });
    if (request.what === 'manuscript') request.chapters = [{ ...f.chapters[0]!, content: long }];
    // Page numbers sit on lines of their own between the wrapped lines.
    const lines = pdfText((await renderExport(request, loadFont)).bytes).split('\n').filter((l) => !/^\s*\f?\s*\d+\s*$/.test(l));
    expect(squash(lines.join(' '))).toContain(long);
  });

  it('exports the series bible with characters, relationships, places and the timeline', async () => {
    const request: ExportRequest = { what: 'bible', series: f.series, author: 'Ada Quill', characters: f.characters, relationships: f.relationships, locations: f.locations, events: f.events, profile: { ...DEFAULT_EXPORT_PROFILE, format: 'pdf' } };
    const file = await renderExport(request, loadFont);
    expect(file.fileName).toBe('The Glass Kingdoms — Series Bible.pdf');
    const text = squash(pdfText(file.bytes));
    for (const expected of ['Mara Vell', 'Goals: Free her sister.', 'Mara Vell and Ilse Vell', 'Type: Family', 'Saltmere', 'The crown breaks', 'Place: Saltmere']) expect(text).toContain(expected);
    const md = new TextDecoder().decode((await renderExport({ ...request, profile: { ...request.profile, format: 'markdown' } }, loadFont)).bytes);
    expect(md).toContain('## Characters');
    expect(md).toContain('### Mara Vell and Ilse Vell');
  });
});

/** EPUBCheck is a JVM start and a full validation: over a minute on a loaded 2-core machine. */
const EPUBCHECK_TIMEOUT_MS = 180_000;

describe('EPUB export', () => {
  it('passes EPUBCheck with one file per chapter, a table of contents and the metadata', async () => {
    const file = await renderExport(manuscript('epub'), loadFont);
    const path = save('book.epub', file.bytes);
    const check = epubcheck(path);
    expect(check.stdout + check.stderr).toMatch(/No errors or warnings detected/);
    expect(check.status).toBe(0);
    const entries = unzipSync(file.bytes);
    expect(Object.keys(entries)[0]).toBe('mimetype');
    expect(Object.keys(entries).filter((n) => /chapter-\d+\.xhtml$/.test(n))).toHaveLength(3);
    const opf = strFromU8(entries['OEBPS/content.opf']!);
    expect(opf).toContain('<dc:creator>Ada Quill</dc:creator>');
    expect(opf).toContain('<dc:description>Two sisters and a broken crown.</dc:description>');
    expect(strFromU8(entries['OEBPS/chapter-0001.xhtml']!)).toContain('<p class="opening">The first paragraph always survives the export.</p>');
    expect(strFromU8(entries['OEBPS/chapter-0002.xhtml']!)).toContain('“Not yet,” Mara whispered.');
  }, EPUBCHECK_TIMEOUT_MS);

  it('passes EPUBCheck for one book without a description, and text with markup characters', async () => {
    const request = manuscript('epub', { bookIds: [f.books[1]!.id] });
    if (request.what === 'manuscript') {
      request.series = { ...f.series, description: '' };
      request.chapters = [...request.chapters, { ...f.chapters[0]!, id: '01930000-0000-7000-8000-0000000000c9', position: 3, title: 'A <b> & "c"', content: 'x < y & z > w\u0007' }];
    }
    const file = await renderExport(request, loadFont);
    expect(file.fileName).toBe('The Salt Crown.epub');
    const check = epubcheck(save('one.epub', file.bytes));
    expect(check.stdout + check.stderr).toMatch(/No errors or warnings detected/);
  }, EPUBCHECK_TIMEOUT_MS);
});

describe('Markdown and plain text', () => {
  it('keep every paragraph as typed, in order', async () => {
    for (const format of ['markdown', 'txt'] as const) {
      const text = new TextDecoder().decode((await renderExport(manuscript(format), loadFont)).bytes);
      let from = 0;
      for (const paragraph of PARAGRAPHS) {
        const at = text.indexOf(paragraph, from);
        expect(at, `${format}: ${paragraph}`).toBeGreaterThanOrEqual(from);
        from = at + paragraph.length;
      }
      // No double blank lines (wrong double spacing) in either.
      expect(text).not.toMatch(/\n\n\n/);
    }
  });
});

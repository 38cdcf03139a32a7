/**
 * Exports and backups in Chromium: a two-book series exported to every format with the network cut
 * (made on the device, in the export worker), each download read back; then a backup downloaded,
 * restored into a new account, and the series seen there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { goOffline, goOnline, setPlan, signUpViaApi, waitForServiceWorkerControl } from '../support';
import { longChapter } from '../support/long-chapter';

test.use({ viewport: { width: 1280, height: 900 } });

const FIRST = 'The first paragraph always survives the export.';
const QUOTE = '“Where’s the crown?” asked Ilse — too late.';
const SECOND_BOOK = 'Book two opens with a paragraph of its own.';
/** Emphasis as typed in the editor (docs/decisions/0009-chapter-markup.md) and as readers read it. */
const EMPHASIS = 'She *ran* — **fast**.';
const JAPANESE = '彼女は静かに扉を開けた。';
const ARABIC = 'قالت الريح للبحر.';
/** As long as a real chapter: every export must carry it to its last paragraph. */
const HARBOUR = longChapter(4_000);
const HARBOUR_END = 'Gulls wheeled over the harbour.';

async function seedSeries(page: Page, title: string): Promise<string> {
  const post = async (url: string, data: object) => {
    const res = await page.request.post(url, { data });
    expect(res.status(), `${url} → ${await res.text()}`).toBe(201);
    return (await res.json()) as { id: string };
  };
  const series = await post('/api/series', { title, description: 'Two sisters and a broken crown.', totalBooks: 2 });
  const one = await post('/api/books', { seriesId: series.id, title: 'The Salt Crown' });
  const two = await post('/api/books', { seriesId: series.id, title: 'The Iron Tide' });
  await post('/api/chapters', { bookId: one.id, title: 'Salt and Ash', content: `${FIRST}\n${QUOTE}\n${EMPHASIS}\n\n* * *\n\nMorning came.` });
  await post('/api/chapters', { bookId: one.id, title: 'The Harbour', content: `${HARBOUR.text}\n\n${HARBOUR_END}` });
  await post('/api/chapters', { bookId: two.id, title: 'Iron Rising', content: `${SECOND_BOOK}\n${JAPANESE}\n${ARABIC}` });
  return series.id;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-e2e-export-'));
test.afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function exportAs(page: Page, radio: string, button: string): Promise<{ name: string; file: string }> {
  await page.getByRole('radio', { name: radio }).check();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const d = await download;
  const file = path.join(tmp, `${Date.now()}-${d.suggestedFilename()}`);
  await d.saveAs(file);
  return { name: d.suggestedFilename(), file };
}

test('a two-book series exports offline to PDF, TXT, DOCX, EPUB and Markdown, and each file reads back', async ({ page, context }) => {
  test.setTimeout(240_000);
  const author = await signUpViaApi(page, { displayName: 'Ada Quill' });
  await setPlan(author.username, 'legendary', page);
  const seriesId = await seedSeries(page, 'The Glass Kingdoms');
  await page.goto(`/series/${seriesId}`);
  await page.getByRole('link', { name: 'Export' }).click();
  await expect(page.getByRole('heading', { name: 'Export', level: 1 })).toBeVisible();
  // The chapters have synced to this device: the preview lists them.
  await expect(page.getByTestId('export-summary')).toHaveText(/^3 chapters/, { timeout: 20_000 });
  await waitForServiceWorkerControl(page);
  // The Japanese font downloads the first time a PDF needs it, and is kept: one PDF online first.
  await exportAs(page, 'PDF', 'Export PDF');

  await goOffline(context);
  await expect(page.getByText('You are offline')).toBeVisible();

  const pdf = await exportAs(page, 'PDF', 'Export PDF');
  expect(pdf.name).toBe('The Glass Kingdoms.pdf');
  const pdfText = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf.file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  for (const text of [FIRST, QUOTE, 'She ran — fast.', SECOND_BOOK, JAPANESE, 'الريح', 'Salt and Ash', 'Iron Rising', HARBOUR.paragraphs.at(-1)!, HARBOUR_END]) expect(pdfText).toContain(text);
  const fonts = execFileSync('pdffonts', [pdf.file], { encoding: 'utf8' });
  for (const face of ['DejaVuSerif-Italic-', 'DejaVuSerif-Bold-', 'DejaVuSans-', 'NotoSansJP-Regular-']) expect(fonts).toContain(face);

  const txt = await exportAs(page, 'Plain text (TXT)', 'Export Plain text (TXT)');
  const plain = fs.readFileSync(txt.file, 'utf8');
  expect(plain.indexOf(FIRST)).toBeLessThan(plain.indexOf(SECOND_BOOK));
  expect(plain).toContain(QUOTE);
  for (const paragraph of HARBOUR.paragraphs) expect(plain).toContain(paragraph);
  expect(plain.indexOf(HARBOUR_END)).toBeLessThan(plain.indexOf(SECOND_BOOK));

  const docx = await exportAs(page, 'Word (DOCX)', 'Export Word (DOCX)');
  const { value } = await mammoth.extractRawText({ path: docx.file });
  const paragraphs = value.split('\n').map((p) => p.trim()).filter(Boolean);
  expect(paragraphs.indexOf(FIRST)).toBeGreaterThan(0);
  expect(paragraphs.indexOf(QUOTE)).toBe(paragraphs.indexOf(FIRST) + 1);
  expect(paragraphs).toContain(SECOND_BOOK);
  expect(paragraphs).toContain(JAPANESE);
  expect((await mammoth.convertToHtml({ path: docx.file })).value).toContain('She <em>ran</em> — <strong>fast</strong>.');
  expect(paragraphs.indexOf(HARBOUR_END)).toBe(paragraphs.indexOf(HARBOUR.paragraphs.at(-1)!) + 1);

  const epub = await exportAs(page, 'EPUB 3', 'Export EPUB 3');
  const check = spawnSync('java', ['-jar', '/usr/share/java/epubcheck.jar', epub.file], { encoding: 'utf8' });
  expect(check.stdout + check.stderr).toContain('No errors or warnings detected');
  const chapters = Object.keys(unzipSync(fs.readFileSync(epub.file))).filter((n) => /chapter-\d+\.xhtml$/.test(n));
  expect(chapters).toHaveLength(3);
  expect(strFromU8(unzipSync(fs.readFileSync(epub.file))['OEBPS/chapter-0001.xhtml']!)).toContain('She <em>ran</em> — <strong>fast</strong>.');

  const md = await exportAs(page, 'Markdown', 'Export Markdown');
  const markdown = fs.readFileSync(md.file, 'utf8');
  expect(markdown).toContain(`### Salt and Ash\n\n${FIRST}\n\n${QUOTE}`);
  expect(markdown).toContain('## The Iron Tide');
  expect(markdown).toContain(`${EMPHASIS}\n`);
  expect(plain).toContain('\nShe ran — fast.\n');
  expect(markdown).toContain(`${HARBOUR.paragraphs.at(-1)!}\n\n${HARBOUR_END}`);

  // The series bible, too.
  await page.getByText('Series bible', { exact: true }).click();
  await expect(page.getByText(/Every character, relationship, place and timeline event/)).toBeVisible();
  const bible = await exportAs(page, 'PDF', 'Export PDF');
  expect(bible.name).toBe('The Glass Kingdoms — Series Bible.pdf');
  await goOnline(context);
});

test('a basic author sees DOCX locked behind the feature gate', async ({ page }) => {
  await signUpViaApi(page);
  const seriesId = await seedSeries(page, 'Locked Formats');
  await page.goto(`/series/${seriesId}/export`);
  await page.getByRole('radio', { name: 'Word (DOCX)' }).check();
  await expect(page.getByText('Feature Locked')).toBeVisible();
  await expect(page.getByText('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.')).toBeVisible();
});

test('a backup downloaded from one account restores into a new one, and the series is there', async ({ page, browser }) => {
  await signUpViaApi(page);
  await seedSeries(page, 'Backed Up Saga');
  await page.goto('/backups');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download backup' }).click();
  const d = await download;
  expect(d.suggestedFilename()).toMatch(/^chronicler-backup-.+\.zip$/);
  const archive = path.join(tmp, d.suggestedFilename());
  await d.saveAs(archive);
  const entries = unzipSync(fs.readFileSync(archive));
  expect(strFromU8(entries['manifest.json']!)).toContain('"format": "chronicler-backup"');

  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 900 } });
  try {
    const newcomer = await other.newPage();
    await signUpViaApi(newcomer, { displayName: 'New Home' });
    await newcomer.goto('/backups');
    await newcomer.getByTestId('restore-file').setInputFiles(archive);
    await expect(newcomer.getByText('Restored: Backed Up Saga.')).toBeVisible({ timeout: 20_000 });
    await newcomer.getByRole('link', { name: 'Open your series' }).click();
    await expect(newcomer).toHaveURL(/\/series$/);
    // The restored rows reach this device through sync and show on the Series page.
    await expect(newcomer.getByRole('main').getByText('Backed Up Saga', { exact: true })).toBeVisible({ timeout: 20_000 });
  } finally {
    await other.close();
  }
});

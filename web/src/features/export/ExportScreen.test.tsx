import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { upgradeMessage } from '@chronicler/schema';
import { freshDb, serverBook, serverChapter, serverSeries } from '@chronicler/sync-client/testing';
import { renderWithDb } from '@/test/renderWithDb';
import { ExportScreen } from './index';

vi.setConfig({ testTimeout: 30_000 });

/** Files the page handed to the browser's download, read back as text. */
let downloads: { name: string; text: Promise<string> }[] = [];
let blobs = new Map<string, Blob>();
beforeEach(() => {
  downloads = [];
  blobs = new Map();
  // jsdom has no object URLs nor downloads: keep the Blob and record the link's click.
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, text: blobs.get(this.href)!.text() });
  });
});
afterEach(() => vi.restoreAllMocks());

async function seed(db: ReturnType<typeof freshDb>) {
  const series = serverSeries({ title: 'The Glass Kingdoms' });
  const one = serverBook(series.id, { title: 'The Salt Crown', position: 1 });
  const two = serverBook(series.id, { title: 'The Iron Tide', position: 2 });
  const chapters = [
    serverChapter(one, { title: 'Harbour', position: 2, content: '“Not yet,” Mara whispered — and ran.' }),
    serverChapter(one, { title: 'Salt and Ash', position: 1, content: 'The first paragraph survives.\n\n* * *\n\nA second scene.' }),
    serverChapter(two, { title: 'Iron Rising', position: 1, content: 'Book two begins.' }),
  ];
  await db.series.put(series);
  await db.books.bulkPut([one, two]);
  await db.chapters.bulkPut(chapters);
  return { series, one, two };
}

function renderExport(plan: 'apprentice' | 'legendary', seriesId: string, db?: ReturnType<typeof renderWithDb>['db']) {
  return renderWithDb(<ExportScreen seriesId={seriesId} />, { plan, ...(db ? { db } : {}) });
}

describe('Export page', () => {
  it('previews the books and chapters in order; an Apprentice exports TXT, and DOCX shows the feature gate', async () => {
    const user = userEvent.setup({ delay: null });
    const db = freshDb();
    const { series } = await seed(db);
    renderExport('apprentice', series.id, db);
    expect(await screen.findByRole('heading', { name: 'Export', level: 1 })).toBeTruthy();
    expect(screen.getByText('The Glass Kingdoms')).toBeTruthy();
    const titles = screen.getAllByText(/^(Salt and Ash|Harbour|Iron Rising)$/).map((e) => e.textContent);
    expect(titles).toEqual(['Salt and Ash', 'Harbour', 'Iron Rising']);
    expect(screen.getByTestId('export-summary').textContent).toMatch(/^3 chapters, \d+ words$/);

    await user.click(screen.getByRole('radio', { name: 'Word (DOCX)' }));
    expect(await screen.findByText('Feature Locked')).toBeTruthy();
    expect(screen.getByText(upgradeMessage('wordsmith'))).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Plain text (TXT)' }));
    await waitFor(() => expect(screen.queryByText('Feature Locked')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Export Plain text (TXT)' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.name).toBe('The Glass Kingdoms.txt');
    const text = await downloads[0]!.text;
    expect(text.indexOf('The first paragraph survives.')).toBeLessThan(text.indexOf('“Not yet,” Mara whispered — and ran.'));
    expect(text).toContain('Book two begins.');
    expect(await screen.findByText('Export ready')).toBeTruthy();
  });

  it('exports only the chosen books as Markdown on Legendary, and keeps the settings as the series profile', async () => {
    const user = userEvent.setup({ delay: null });
    const db = freshDb();
    const { series } = await seed(db);
    const view = renderExport('legendary', series.id, db);
    await user.click(await screen.findByRole('checkbox', { name: /The Iron Tide/ }));
    expect(screen.getByTestId('export-summary').textContent).toMatch(/^2 chapters/);
    await user.click(screen.getByRole('radio', { name: 'Markdown' }));
    await user.clear(screen.getByRole('textbox', { name: /Scene break/ }));
    await user.type(screen.getByRole('textbox', { name: /Scene break/ }), '~~~');
    await user.click(screen.getByRole('button', { name: 'Save as series profile' }));
    expect(await screen.findByText('Export profile saved')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Export Markdown' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.name).toBe('The Salt Crown.md');
    const md = await downloads[0]!.text;
    expect(md).toContain('## Salt and Ash');
    expect(md).toContain('\n~~~\n');
    expect(md).not.toContain('Book two begins.');

    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 0));
    renderExport('legendary', series.id, db);
    expect(await screen.findByRole('radio', { name: 'Markdown' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: /The Iron Tide/ })).toHaveProperty('checked', false);
    expect(screen.getByRole('textbox', { name: /Scene break/ })).toHaveProperty('value', '~~~');
  });

  it('says so when the series is not on this device', async () => {
    renderExport('apprentice', '01930000-0000-7000-8000-00000000dead');
    expect(await screen.findByText('Series not found')).toBeTruthy();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ChapterRevisionSummary } from '@chronicler/schema';
import { stubFetch } from '@/test/fetch-stub';
import { RevisionDrawer, type RevisionDrawerProps } from './RevisionDrawer';

const CHAPTER = '0190a0b0-0000-7000-8000-0000000000c1';
const base = `/api/chapters/${CHAPTER}/revisions`;

function summary(rev: number, wordCount: number, createdAt: string): ChapterRevisionSummary {
  return { rev, createdAt, title: 'Lanterns', wordCount, authorId: null };
}

afterEach(() => vi.unstubAllGlobals());

function drawer(props: Partial<RevisionDrawerProps>) {
  return (
    <MantineProvider env="test">
      <RevisionDrawer
        opened
        onClose={() => undefined}
        chapterId={CHAPTER}
        online
        getCurrentText={() => 'The river ran cold.\n\nA new line.'}
        onRestore={async () => true}
        {...props}
      />
    </MantineProvider>
  );
}

describe('the revision history after a restore', () => {
  it('shows the restored save as the latest entry once the server has it, without reopening', async () => {
    // The server's list: two saves, then (after the restore reaches it) a third.
    let revisions = [summary(12, 7, '2026-11-20T10:00:00Z'), summary(5, 4, '2026-11-19T10:00:00Z')];
    stubFetch({
      [`GET ${base}`]: async () => ({ status: 200, body: revisions }),
      [`GET ${base}/5`]: { status: 200, body: { title: 'Lanterns', content: 'The river ran cold.', wordCount: 4 } },
    });
    const { rerender } = render(drawer({ savedRev: 12 }));
    const items = await screen.findAllByTestId('revision-item');
    expect(items).toHaveLength(2);

    await userEvent.click(items[1]!);
    await userEvent.click(await screen.findByRole('button', { name: 'Restore this version' }));

    // The restore is sent in the background; the server answers with the chapter's new revision.
    revisions = [summary(14, 4, '2026-11-21T10:00:00Z'), ...revisions];
    rerender(drawer({ savedRev: 14 }));

    await waitFor(() => expect(screen.getAllByTestId('revision-item')).toHaveLength(3));
    const latest = screen.getAllByTestId('revision-item')[0]!;
    expect(within(latest).getByText(/latest/)).toBeTruthy();
    expect(within(latest).getByText('4 words')).toBeTruthy();
  });
});

describe('comparing with the previous revision', () => {
  async function compare(current: string, revision: string) {
    stubFetch({
      [`GET ${base}`]: { status: 200, body: [summary(12, 9, '2026-11-20T10:00:00Z')] },
      [`GET ${base}/12`]: { status: 200, body: { title: 'Lanterns', content: revision, wordCount: 9 } },
    });
    render(drawer({ savedRev: 12, getCurrentText: () => current }));
    await userEvent.click((await screen.findAllByTestId('revision-item'))[0]!);
    return screen.findByTestId('revision-diff');
  }

  it('a paragraph added at the end is the only passage that differs, whatever spaces ended the one before', async () => {
    // As typed: "He left. " (a space after the full stop), saved; later Enter, Enter and a new paragraph.
    const revision = 'The river ran cold.\n\nHe left. ';
    const current = 'The river ran cold.\n\nHe left.\n\nShe stayed behind.\n';
    const diff = await compare(current, revision);
    expect(within(diff).getByText('1 passage differs.')).toBeTruthy();
    const changed = [...within(diff).getAllByTestId('diff-left'), ...within(diff).getAllByTestId('diff-right')].map((cell) => cell.textContent ?? '');
    expect(changed.join(' | ')).toContain('She stayed behind.');
    expect(changed.join(' | ')).not.toContain('He left.');
  });

  it('says so when two versions differ only in spaces at line ends', async () => {
    const diff = await compare('The river ran cold.\n\nHe left.\n', 'The river ran cold. \n\nHe left.');
    expect(within(diff).getByText('The two versions read the same: they differ only in spaces at the ends of lines.')).toBeTruthy();
    expect(within(diff).queryAllByTestId('diff-left')).toHaveLength(0);
  });
});

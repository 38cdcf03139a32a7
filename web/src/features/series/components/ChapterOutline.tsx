/**
 * A book's chapters as an outline — the planner's view (docs/web.md): each chapter's title, status,
 * words and synopsis, in order, each opening the chapter editor. The synopsis is marked text
 * (docs/decisions/0009-chapter-markup.md), shown with its italic and bold.
 */
import { Fragment } from 'react';
import { Link } from 'react-router';
import { Badge, Group, Text } from '@mantine/core';
import { type Chapter, parseMarkup } from '@chronicler/schema';
import { chapterEditorPath } from '@/lib/chapterEditorPath';
import classes from './ChapterList.module.css';

/** Every status by its own name (the editor's status selector's labels). */
export const CHAPTER_STATUS_NAMES: Record<Chapter['status'], string> = {
  in_progress: 'In Progress',
  draft: 'Draft',
  revision: 'Revision',
  completed: 'Completed',
};

/** Marked text with its emphasis, and nothing else: runs become text in `em` / `strong`. */
export function MarkedText({ text }: { text: string }) {
  return (
    <>
      {parseMarkup(text).map((run, i) => {
        const lines = run.text.split('\n').map((line, j) => (
          <Fragment key={j}>
            {j > 0 ? <br /> : null}
            {line}
          </Fragment>
        ));
        const inner = run.bold ? <strong>{lines}</strong> : lines;
        return <Fragment key={i}>{run.italic ? <em>{inner}</em> : inner}</Fragment>;
      })}
    </>
  );
}

export function ChapterOutline({ bookId, seriesId, chapters }: { bookId: string; seriesId: string; chapters: readonly Chapter[] }) {
  return (
    <ol className={classes.outline} data-testid="chapter-outline">
      {chapters.map((chapter) => {
        const synopsis = chapter.synopsis ?? '';
        return (
          <li key={chapter.id} data-testid="outline-item">
            <Link to={chapterEditorPath({ id: chapter.id, bookId, seriesId })} className={classes.outlineLink}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" fw={600} truncate="end">
                  {chapter.title}
                </Text>
                <Group gap={6} wrap="nowrap" style={{ flex: 'none' }}>
                  <Badge size="xs" variant="light" color={chapter.status === 'completed' ? 'teal' : 'gray'}>
                    {CHAPTER_STATUS_NAMES[chapter.status]}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {chapter.wordCount.toLocaleString()} words
                  </Text>
                </Group>
              </Group>
              {synopsis.trim() ? (
                <Text size="sm" mt={2} className={classes.synopsis} data-testid="outline-synopsis">
                  <MarkedText text={synopsis} />
                </Text>
              ) : (
                <Text size="xs" c="dimmed" mt={2} fs="italic">
                  No synopsis yet
                </Text>
              )}
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

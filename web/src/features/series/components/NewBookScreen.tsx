import '../styles';
import { Link, useNavigate } from 'react-router';
import { Anchor, Paper, Skeleton, Stack } from '@mantine/core';
import { PageHeader } from '@/components/PageHeader';
import { useSession } from '@/lib/session';
import { useSync } from '@/lib/sync';
import { useBooks, useSeries } from '../hooks/useSeriesData';
import { limitNotice } from '../model/limits';
import { AddBookForm } from './AddBookForm';
import { LimitNotice } from './LimitNotice';
import { SeriesNotFound } from './SeriesNotFound';

/** /series/{id}/books/new (001 §2): the add-book form for that series, then back to /series/{id}. */
export function NewBookScreen({ seriesId }: { seriesId: string }) {
  const navigate = useNavigate();
  const { userId } = useSync();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const series = useSeries(seriesId);
  const books = useBooks(seriesId);
  const back = `/series/${encodeURIComponent(seriesId)}`;

  if (series === undefined || books === undefined) {
    return (
      <>
        <PageHeader title="Add a New Book" />
        <Skeleton height={260} radius="md" maw={640} />
      </>
    );
  }
  if (series === null) {
    return (
      <>
        <PageHeader title="Add a New Book" />
        <SeriesNotFound maw={640} />
      </>
    );
  }

  const notice = series.ownerId === userId ? limitNotice(plan, 'booksPerSeries', books.length) : null;
  return (
    <>
      <PageHeader
        title="Add a New Book"
        subtitle={
          <>
            Book {books.length + 1} of{' '}
            <Anchor component={Link} to={back} inherit>
              {series.title}
            </Anchor>
          </>
        }
      />
      <Stack gap="md" maw={640}>
        {notice ? <LimitNotice notice={notice} testId="book-limit" /> : null}
        <Paper withBorder radius="md" p="lg">
          <AddBookForm
            seriesId={series.id}
            bookCount={books.length}
            locked={notice?.locked ?? false}
            onCreated={() => navigate(back)}
            onCancel={() => navigate(back)}
          />
        </Paper>
      </Stack>
    </>
  );
}

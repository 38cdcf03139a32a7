import { Link } from 'react-router';
import { Anchor, Paper, Progress, Text } from '@mantine/core';

export interface CurrentSeriesCardProps {
  /** When given, the title links to the series on the Series page. */
  id?: string;
  title: string;
  currentBook: number;
  totalBooks: number;
  /** Series progress, 0–100: the work done (`seriesProgress`, docs/spec-differences.md), not the current book. */
  percent: number;
}

/** The Current Series card of spec 000 §2 Layout: title, "Book X of Y" and percent complete. */
export function CurrentSeriesCard({ id, title, currentBook, totalBooks, percent }: CurrentSeriesCardProps) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <Paper withBorder radius="md" p="sm" aria-label="Current series" component="section" data-testid="current-series">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" lts={0.5} data-card-part="label">
        Current Series
      </Text>
      {id ? (
        <Anchor component={Link} to={`/series?id=${encodeURIComponent(id)}`} fw={700} mt={2} lineClamp={2} c="inherit" display="block" data-card-part="title">
          {title}
        </Anchor>
      ) : (
        <Text fw={700} mt={2} lineClamp={2} data-card-part="title">
          {title}
        </Text>
      )}
      <Text size="sm" c="dimmed" mt={2} data-card-part="book">
        Book {currentBook} of {totalBooks}
      </Text>
      <Progress value={value} size="sm" mt="xs" data-card-part="progress" aria-label={`Series progress ${value}%`} />
      <Text size="xs" c="dimmed" mt={4} data-card-part="percent">
        {value}% complete
      </Text>
    </Paper>
  );
}

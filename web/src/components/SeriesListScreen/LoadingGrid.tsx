import { SimpleGrid, Skeleton, type MantineRadius } from '@mantine/core';

interface LoadingGridProps {
  /** The grid's accessible name: 'Loading locations'. */
  label: string;
  /** Height of a placeholder card. */
  height: number;
  radius?: MantineRadius;
}

/** Three placeholder cards in the page's card grid while its rows are read. */
export function LoadingGrid({ label, height, radius = 'md' }: LoadingGridProps) {
  return (
    <SimpleGrid cols={CARD_COLUMNS} spacing="md" aria-busy="true" aria-label={label}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} height={height} radius={radius} />
      ))}
    </SimpleGrid>
  );
}

/** One column on phones, two from sm, three from lg. */
export const CARD_COLUMNS = { base: 1, sm: 2, lg: 3 };

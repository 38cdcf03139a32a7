import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { IconBooks, IconPlus } from '@tabler/icons-react';
import { EmptyPanel } from '../EmptyPanel';

interface NoSeriesPanelProps {
  /** What the page keeps, and that it needs a series first. */
  description: string;
  /** Replaces the 'Create a series' link to the Series page. */
  action?: ReactNode;
  flat?: boolean;
}

/** 'No Series Selected': the author has no series for this page to show. */
export function NoSeriesPanel({ description, action, flat }: NoSeriesPanelProps) {
  return (
    <EmptyPanel
      icon={<IconBooks size={30} stroke={1.5} />}
      title="No Series Selected"
      description={description}
      flat={flat}
      actions={
        action ?? (
          <Button component={Link} to="/series" leftSection={<IconPlus size={16} aria-hidden />}>
            Create a series
          </Button>
        )
      }
    />
  );
}

import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { IconBookOff } from '@tabler/icons-react';
import { EmptyPanel } from '@/components/EmptyPanel';

/** A /series/{id} page whose series is not on this device. */
export function SeriesNotFound({ maw }: { maw?: number }) {
  return (
    <EmptyPanel
      flat
      maw={maw}
      icon={<IconBookOff size={30} stroke={1.5} />}
      title="Series not found"
      description="This series does not exist, was deleted, or has not reached this device yet."
      actions={
        <Button component={Link} to="/series" variant="light">
          Back to your series
        </Button>
      }
    />
  );
}

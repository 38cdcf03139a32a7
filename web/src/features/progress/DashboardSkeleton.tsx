import { Button, Skeleton } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { welcomeBack } from '@chronicler/schema';
import { PageHeader } from '@/components/PageHeader';
import { dashboardSkeletonClasses as classes } from './dashboardSkeletonClasses';

/**
 * The dashboard before its data can be read: the greeting from the session's user and the
 * panels' outlines, in DashboardScreen's grid. The app paints it while the local database and
 * the sync engine are still downloading (the first paint needs neither: docs/web.md#first-load).
 */
export function DashboardSkeleton({ displayName }: { displayName: string | undefined }) {
  return (
    <div aria-busy="true" data-testid="dashboard-skeleton">
      <PageHeader
        title={welcomeBack(displayName)}
        subtitle="Your writing journey continues today"
        actions={
          <Button leftSection={<IconPencil size={18} />} disabled>
            Start Writing
          </Button>
        }
      />
      <div className={classes.grid}>
        <div className={classes.column}>
          <div className={classes.stats}>
            <Skeleton height={120} radius="md" />
            <Skeleton height={120} radius="md" />
          </div>
          <Skeleton height={160} radius="md" />
          <Skeleton height={140} radius="md" />
        </div>
        <div className={classes.column}>
          <Skeleton height={220} radius="md" />
          <Skeleton height={120} radius="md" />
        </div>
      </div>
    </div>
  );
}

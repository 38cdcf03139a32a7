/**
 * What the editor screen shows under its toolbar when there is no chapter to write in: the local
 * store failed, the chapter is not on this device, or its series left the device while it was open.
 */
import { Alert, Button, Text } from '@mantine/core';
import { IconFileOff } from '@tabler/icons-react';
import { EmptyPanel } from '@/components/EmptyPanel';

export type UnavailableReason = { kind: 'error'; message: string } | { kind: 'missing'; online: boolean } | { kind: 'series-gone' };

export function Unavailable({ reason, onBack, onDashboard }: { reason: UnavailableReason; onBack: () => void; onDashboard: () => void }) {
  if (reason.kind === 'error') {
    return (
      <Alert color="red" variant="light" title="This chapter could not be opened" role="alert">
        <Text size="sm">The local store answered: {reason.message}. Reload the page to try again.</Text>
      </Alert>
    );
  }
  if (reason.kind === 'missing') {
    return (
      <EmptyPanel
        flat
        icon={<IconFileOff size={30} stroke={1.5} />}
        title="Chapter not found"
        description={
          reason.online
            ? 'This chapter is not on this device. It may have been deleted, or it is still on its way: it appears here as soon as it syncs.'
            : 'This chapter is not on this device yet, and you are offline. It appears here once you reconnect and it syncs.'
        }
        actions={
          <Button variant="light" onClick={onBack}>
            Back
          </Button>
        }
      />
    );
  }
  return (
    <EmptyPanel
      flat
      icon={<IconFileOff size={30} stroke={1.5} />}
      title="No longer shared with you"
      description="You are no longer a member of this series, so it was removed from this device. Anything you had not synced is kept in the sync problems panel."
      actions={
        <Button variant="light" onClick={onDashboard}>
          Back to the dashboard
        </Button>
      }
      data-testid="series-gone"
    />
  );
}

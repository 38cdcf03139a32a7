import '@mantine/core/styles/Alert.layer.css';
import { Alert } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useSeriesRole } from '@/lib/useSeriesRole';

/** Says why a shared series' screen is read-only for a viewer (nothing for anyone who may edit). */
export function ReadOnlyNotice({ seriesId }: { seriesId: string | null | undefined }) {
  const { canEdit, readOnlyReason } = useSeriesRole(seriesId);
  if (canEdit) return null;
  return (
    <Alert color="gray" variant="light" icon={<IconEye size={18} aria-hidden />} title="Read-only" data-testid="read-only-notice">
      {readOnlyReason}
    </Alert>
  );
}

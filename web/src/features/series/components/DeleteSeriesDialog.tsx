import { type Series } from '@chronicler/schema';
import { withError } from '@/lib/copy/toasts';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { toast } from '@/lib/toast';
import { useSync } from '@/lib/sync';
import { picturesOfSeries, removeUnreferencedPictures } from '@chronicler/sync-client';

export const DELETE_SERIES_MESSAGE =
  'Are you sure you want to delete this series? Its books, chapters, characters, locations and timeline events are deleted with it. This action cannot be undone.';

interface DeleteSeriesDialogProps {
  series: Series | null;
  onClose: () => void;
  onDeleted: (series: Series) => void;
}

/** Deletes a series (and everything in it) after confirmation. */
export function DeleteSeriesDialog({ series, onClose, onDeleted }: DeleteSeriesDialogProps) {
  const { db, mutators } = useSync();
  const remove = async () => {
    if (!series) return;
    try {
      // The pictures of everything in it leave the device with it (docs/decisions/0023-pictures-on-the-device.md).
      const pictures = await picturesOfSeries(db, series.id).catch(() => []);
      await mutators.series.delete(series.id);
      void removeUnreferencedPictures(db, { released: pictures }).catch(() => undefined);
      toast.show({ title: 'Series deleted', variant: 'default' });
      onDeleted(series);
      onClose();
    } catch (error) {
      toast.show(withError({ title: 'Error deleting series', variant: 'destructive' }, error));
    }
  };
  return (
    <ConfirmDeleteDialog
      opened={series !== null}
      title={series ? `Delete ${series.title}?` : 'Delete series'}
      message={DELETE_SERIES_MESSAGE}
      confirmLabel="Delete Series"
      onCancel={onClose}
      onConfirm={remove}
    />
  );
}

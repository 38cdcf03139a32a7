import { type Series } from '@chronicler/schema';
import { withError } from '@/lib/copy/toasts';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { toast } from '@/lib/toast';
import { useMutators } from '@/lib/sync';

export const DELETE_SERIES_MESSAGE =
  'Are you sure you want to delete this series? Its books, chapters, characters, locations and timeline events are deleted with it. This action cannot be undone.';

interface DeleteSeriesDialogProps {
  series: Series | null;
  onClose: () => void;
  onDeleted: (series: Series) => void;
}

/** Deletes a series (and everything in it) after confirmation. */
export function DeleteSeriesDialog({ series, onClose, onDeleted }: DeleteSeriesDialogProps) {
  const mutators = useMutators();
  const remove = async () => {
    if (!series) return;
    try {
      await mutators.series.delete(series.id);
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

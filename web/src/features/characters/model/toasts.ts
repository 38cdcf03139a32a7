/**
 * Toasts for the relationship edit and delete actions, which the spec's catalogue (001 §8) does not
 * list (it only adds relationships). Worded like the catalogue's character toasts.
 */
import { FALLBACK_MESSAGES, type ToastContent } from '@/lib/copy/toasts';

export const RELATIONSHIP_EXTRA_TOASTS = {
  relationshipUpdated: { title: 'Relationship updated', variant: 'default' },
  relationshipDeleted: { title: 'Relationship deleted', variant: 'default' },
  relationshipUpdateFailed: { title: 'Error updating relationship', message: FALLBACK_MESSAGES.unexpected, variant: 'destructive' },
  relationshipDeleteFailed: { title: 'Error deleting relationship', message: FALLBACK_MESSAGES.unexpected, variant: 'destructive' },
} as const satisfies Record<string, ToastContent>;

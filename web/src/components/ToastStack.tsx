import { Notifications } from '@mantine/notifications';
import { TOAST_BEHAVIOUR } from '@/lib/copy/toast-core';

/** Mantine's toast stack with the spec's behaviour (000 §9); lazy, rendered by ToastRegion. */
export default function ToastStack() {
  return (
    <Notifications
      withinPortal={false}
      position="bottom-right"
      limit={TOAST_BEHAVIOUR.maxVisible}
      autoClose={TOAST_BEHAVIOUR.durationMs}
      containerWidth={TOAST_BEHAVIOUR.maxWidthPx}
      allowDragDismiss={false}
      allowScrollDismiss={false}
      zIndex={1000}
    />
  );
}

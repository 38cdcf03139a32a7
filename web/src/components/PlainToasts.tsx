import { useEffect } from 'react';
import { notifications, type NotificationData } from '@mantine/notifications';
import { TOAST_BEHAVIOUR } from '@/lib/copy/toast-core';
import classes from './PlainToasts.module.css';

/**
 * The toasts on screen, drawn without Mantine's stack (ToastRegion): while the stack downloads, and
 * when it cannot (a first visit that lost the network before the stack arrived — the service worker
 * does not serve a page it did not load). Same texts, variants, close button, auto-close and
 * `data-toast-id` (so the region's swipe works on them); no transitions. The stack is then
 * no longer downloaded on the way to the first screen just in case a toast comes offline.
 */
export function PlainToasts({ shown }: { shown: NotificationData[] }) {
  return (
    <div className={classes.stack}>
      {shown.slice(0, TOAST_BEHAVIOUR.maxVisible).map((data) => (
        <PlainToast key={data.id} data={data} />
      ))}
    </div>
  );
}

function PlainToast({ data }: { data: NotificationData }) {
  const id = data.id!;
  const attributes = data as unknown as Record<string, unknown>;
  const destructive = attributes['data-variant'] === 'destructive';
  useEffect(() => {
    if (typeof data.autoClose !== 'number') return undefined;
    const timer = setTimeout(() => notifications.hide(id), data.autoClose);
    return () => clearTimeout(timer);
  }, [id, data.autoClose]);
  return (
    <div
      role="alert"
      className={`${classes.toast} ${data.className ?? ''}`}
      data-toast-id={id}
      data-variant={destructive ? 'destructive' : 'default'}
      data-destructive={destructive || undefined}
    >
      <div className={classes.body}>
        <div className={classes.title}>{data.title}</div>
        {data.message ? <div className={classes.message}>{data.message}</div> : null}
      </div>
      <button type="button" className={classes.close} aria-label="Dismiss notification" onClick={() => notifications.hide(id)}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

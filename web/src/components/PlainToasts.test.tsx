import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { notifications, useNotifications } from '@mantine/notifications';
import { toast } from '@/lib/toast';
import { renderInTheme } from '@/test/render';
import { PlainToasts } from './PlainToasts';

/** What ToastRegion draws until the stack has downloaded (or when it cannot). */
function Plain() {
  return <PlainToasts shown={useNotifications().notifications} />;
}

describe('toasts drawn without the stack', () => {
  it('show the toast with its text, variant and a close button that dismisses it', () => {
    notifications.clean();
    renderInTheme(<Plain />);
    act(() => {
      toast.error({ title: 'Save failed', message: 'Disk full' });
    });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Save failed')).toBeTruthy();
    expect(within(alert).getByText('Disk full')).toBeTruthy();
    expect(alert.getAttribute('data-variant')).toBe('destructive');
    expect(alert.getAttribute('data-toast-id')).toMatch(/^toast-/);
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('one at a time, and each closes by itself after its duration', () => {
    vi.useFakeTimers();
    try {
      notifications.clean();
      renderInTheme(<Plain />);
      act(() => {
        toast.success({ title: 'First' });
        toast.success({ title: 'Offline: changes sync when you reconnect', duration: 2000 });
      });
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      expect(screen.getByText('Offline: changes sync when you reconnect')).toBeTruthy();
      act(() => {
        vi.advanceTimersByTime(1900);
      });
      expect(screen.queryByRole('alert')).not.toBeNull();
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

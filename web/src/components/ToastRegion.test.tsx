import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { toast } from '@/lib/toast';
import { renderInTheme } from '@/test/render';
import { ToastRegion } from './ToastRegion';

function renderRegion() {
  notifications.clean();
  return renderInTheme(<ToastRegion />);
}

describe('toasts', () => {
  it('shows one toast at a time: the newest replaces the last', async () => {
    renderRegion();
    act(() => {
      toast.success({ title: 'First', message: 'one' });
      toast.error({ title: 'Second', message: 'two' });
    });
    expect(await screen.findByText('Second')).toBeTruthy();
    expect(screen.queryByText('First')).toBeNull();
  });

  it('styles failures as destructive', async () => {
    renderRegion();
    act(() => {
      toast.error({ title: 'Update failed', message: 'Nope' });
    });
    const el = (await screen.findByText('Update failed')).closest('[data-toast-id]');
    expect(el?.getAttribute('data-variant')).toBe('destructive');
  });

  it('F8 moves focus to the toast region', async () => {
    renderRegion();
    act(() => {
      toast.success({ title: 'Saved', message: 'ok' });
    });
    await screen.findByText('Saved');
    fireEvent.keyDown(window, { key: 'F8' });
    const region = screen.getByRole('region', { name: /Notifications \(F8\)/ });
    expect(region.contains(document.activeElement)).toBe(true);
  });

  it('a swipe right past 50 px dismisses; a shorter one does not', async () => {
    renderRegion();
    act(() => {
      toast.success({ title: 'Swipe me', message: 'please' });
    });
    const el = (await screen.findByText('Swipe me')).closest<HTMLElement>('[data-toast-id]');
    if (!el) throw new Error('no toast element');
    fireEvent.pointerDown(el, { button: 0, clientX: 100, clientY: 10, pointerId: 1 });
    fireEvent.pointerMove(el, { clientX: 140, clientY: 10, pointerId: 1 });
    fireEvent.pointerUp(el, { clientX: 140, clientY: 10, pointerId: 1 });
    expect(screen.queryByText('Swipe me')).toBeTruthy();

    fireEvent.pointerDown(el, { button: 0, clientX: 100, clientY: 10, pointerId: 2 });
    fireEvent.pointerMove(el, { clientX: 160, clientY: 10, pointerId: 2 });
    fireEvent.pointerUp(el, { clientX: 160, clientY: 10, pointerId: 2 });
    await waitFor(() => expect(screen.queryByText('Swipe me')).toBeNull());
  });
});

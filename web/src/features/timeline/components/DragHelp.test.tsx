import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTheme } from '@/test/render';
import { DRAG_HELP_DISMISSED_KEY, DragHelp } from './DragHelp';

afterEach(() => window.localStorage.clear());

describe('the drag and drop help', () => {
  it('is a note, not an alert or a live region, and stays dismissed on this device', async () => {
    const { unmount } = renderInTheme(<DragHelp />);
    const help = screen.getByTestId('drag-help');
    expect(help.getAttribute('role')).toBe('note');
    expect(help.closest('[aria-live], [role="alert"], [role="status"]')).toBeNull();
    expect(screen.getByText('Timeline Drag & Drop Enabled')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Dismiss the drag and drop help' }));
    expect(screen.queryByTestId('drag-help')).toBeNull();
    expect(window.localStorage.getItem(DRAG_HELP_DISMISSED_KEY)).toBe('true');
    unmount();
    renderInTheme(<DragHelp />);
    expect(screen.queryByTestId('drag-help')).toBeNull();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ActionIcon } from '@mantine/core';
import { renderInTheme } from '@/test/render';
import { DeferredTooltip } from './DeferredTooltip';

describe('DeferredTooltip', () => {
  it('shows its label on hover once loaded, without remounting the control, and hides it on leave', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    renderInTheme(
      <DeferredTooltip label="Switch to Dark">
        <ActionIcon aria-label="Theme: Light" onClick={onClick}>
          L
        </ActionIcon>
      </DeferredTooltip>,
    );
    const button = screen.getByRole('button', { name: 'Theme: Light' });
    expect(screen.queryByText('Switch to Dark')).toBeNull();

    await user.hover(button);
    expect(await screen.findByText('Switch to Dark')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Theme: Light' })).toBe(button);

    await user.click(button);
    expect(onClick).toHaveBeenCalledOnce();
    await user.unhover(button);
    await vi.waitFor(() => expect(screen.queryByText('Switch to Dark')).toBeNull());
  });

  it('with openDelay, shows only once the pointer has rested that long', async () => {
    const user = userEvent.setup();
    renderInTheme(
      <DeferredTooltip label="Edit" openDelay={400}>
        <ActionIcon aria-label="Edit Rok">E</ActionIcon>
      </DeferredTooltip>,
    );
    const button = screen.getByRole('button', { name: 'Edit Rok' });
    await user.hover(button);
    await user.unhover(button);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.queryByText('Edit')).toBeNull();

    await user.hover(button);
    expect(await screen.findByText('Edit')).toBeTruthy();
  });
});

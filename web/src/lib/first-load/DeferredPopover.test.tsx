import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ActionIcon, Menu, Popover } from '@mantine/core';
import { renderInTheme } from '@/test/render';
import { AttachTarget } from './AttachTarget';
import { DeferredPopover } from './DeferredPopover';
import { OpenedOnce } from './OpenedOnce';

function ThemeLikeMenu() {
  return (
    <DeferredPopover
      popup="menu"
      trigger={
        <ActionIcon aria-label="Choose">
          C
        </ActionIcon>
      }
    >
      {({ opened, onChange, target, id }) => (
        <Menu id={id} opened={opened} onChange={onChange} withinPortal={false}>
          <Menu.Target>
            <AttachTarget target={target} />
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item>First</Menu.Item>
            <Menu.Item>Second</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </DeferredPopover>
  );
}

describe('DeferredPopover', () => {
  it('mounts nothing until first opened; the trigger keeps its node, carries the aria attributes and gets focus back', async () => {
    const user = userEvent.setup();
    renderInTheme(<ThemeLikeMenu />);
    const button = screen.getByRole('button', { name: 'Choose' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-controls')).toBeNull();
    expect(screen.queryByRole('menu')).toBeNull();

    // Keyboard: Enter on the focused trigger opens it.
    button.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(screen.getByRole('button', { name: 'Choose' })).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    expect(menu.getAttribute('aria-labelledby')).toBe(button.id);

    // Escape closes it and focus returns to the trigger (Mantine's Menu returns focus).
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(button.getAttribute('aria-expanded')).toBe('false');

    // A click opens it again, a second click closes it.
    await user.click(button);
    expect(await screen.findByRole('menuitem', { name: 'First' })).toBeTruthy();
    await user.click(button);
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('a menu item click closes the menu; a click outside closes a popover', async () => {
    const user = userEvent.setup();
    renderInTheme(
      <>
        <ThemeLikeMenu />
        <DeferredPopover popup="dialog" trigger={<ActionIcon aria-label="Status">S</ActionIcon>}>
          {({ opened, onChange, target, id }) => (
            <Popover id={id} opened={opened} onChange={onChange} trapFocus>
              <Popover.Target>
                <AttachTarget target={target} />
              </Popover.Target>
              <Popover.Dropdown>
                <button type="button">Inside</button>
              </Popover.Dropdown>
            </Popover>
          )}
        </DeferredPopover>
        <p>Elsewhere</p>
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Choose' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Second' }));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Status' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Status' }).getAttribute('aria-haspopup')).toBe('dialog');
    await user.click(screen.getByText('Elsewhere'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('OpenedOnce', () => {
  it('renders nothing before the first opening, then closed once and opened after mounting, and stays mounted', async () => {
    const seen: boolean[] = [];
    const draw = (opened: boolean) => {
      seen.push(opened);
      return <span>{opened ? 'open' : 'closed'}</span>;
    };
    const { rerender } = render(<OpenedOnce opened={false}>{draw}</OpenedOnce>);
    expect(seen).toEqual([]);
    rerender(<OpenedOnce opened>{draw}</OpenedOnce>);
    expect(await screen.findByText('open')).toBeTruthy();
    expect(seen[0]).toBe(false);
    const node = screen.getByText('open');
    rerender(<OpenedOnce opened={false}>{draw}</OpenedOnce>);
    expect(screen.getByText('closed')).toBe(node);
  });
});

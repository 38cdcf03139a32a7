import { ActionIcon, Menu, Tooltip, type FloatingPosition } from '@mantine/core';
import { IconCheck, IconPalette } from '@tabler/icons-react';
import { ALL_THEME_LABELS, offeredThemes } from './all-themes';
import { useThemeStore } from './theme-store';
import { THEME_ICONS } from './ThemeToggle';
import { useThemePack } from './useThemePack';

/** Theme picker: Light, Dark, Spooky, Sunset (spec 000 §2), and the Custom Theme Pack's five for its owners. */
export function ThemePicker({ position = 'bottom-start' }: { position?: FloatingPosition }) {
  const theme = useThemeStore((s) => s.theme);
  const setTheme = useThemeStore((s) => s.setTheme);
  const ownsPack = useThemePack();
  return (
    <Menu position={position} withArrow shadow="md" width={180} withinPortal={false} floatingStrategy="fixed" withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Tooltip label="Choose theme" withArrow>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Choose theme (current: ${ALL_THEME_LABELS[theme]})`}>
            <IconPalette size={18} stroke={1.75} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {offeredThemes(ownsPack).map((name) => {
          const Icon = THEME_ICONS[name];
          return (
            <Menu.Item
              key={name}
              leftSection={<Icon size={16} stroke={1.75} />}
              rightSection={name === theme ? <IconCheck size={14} /> : null}
              onClick={() => setTheme(name)}
              aria-current={name === theme ? 'true' : undefined}
            >
              {ALL_THEME_LABELS[name]}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}

import { type FloatingPosition } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { AttachTarget, Menu, type PopoverLayerProps } from '@/lib/first-load';
import { ALL_THEME_LABELS, offeredThemes } from './all-themes';
import { useThemeStore } from './theme-store';
import { THEME_ICONS } from './ThemeToggle';
import { useThemePack } from './useThemePack';

/** The theme picker's menu (ThemePicker), loaded and mounted when first opened. */
export default function ThemeMenu({ opened, onChange, target, id, position }: PopoverLayerProps & { position: FloatingPosition }) {
  const theme = useThemeStore((s) => s.theme);
  const setTheme = useThemeStore((s) => s.setTheme);
  const ownsPack = useThemePack();
  return (
    <Menu
      id={id}
      opened={opened}
      onChange={onChange}
      position={position}
      withArrow
      shadow="md"
      width={180}
      withinPortal={false}
      floatingStrategy="fixed"
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <AttachTarget target={target} />
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

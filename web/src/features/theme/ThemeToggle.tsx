import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { DeferredTooltip } from '@/lib/first-load';
import { IconBook2, IconGhost2, IconLeaf, IconMoon, IconPlanet, IconRipple, IconRosette, IconSun, IconSunset2 } from '@tabler/icons-react';
import { ALL_THEME_LABELS, type AppThemeName, nextOfferedTheme } from './all-themes';
import { useThemeStore } from './theme-store';
import { useThemePack } from './useThemePack';

export const THEME_ICONS: Record<AppThemeName, typeof IconSun> = {
  light: IconSun,
  dark: IconMoon,
  spooky: IconGhost2,
  sunset: IconSunset2,
  parchment: IconBook2,
  forest: IconLeaf,
  ocean: IconRipple,
  nebula: IconPlanet,
  rosewood: IconRosette,
};

/** Cycles light → dark → spooky → sunset (→ the Custom Theme Pack's five for owners) → light (spec 000 §2). */
export function ThemeToggle(props: ActionIconProps) {
  const theme = useThemeStore((s) => s.theme);
  const cycleTheme = useThemeStore((s) => s.cycleTheme);
  const ownsPack = useThemePack();
  const Icon = THEME_ICONS[theme];
  const label = `Theme: ${ALL_THEME_LABELS[theme]}. Switch to ${ALL_THEME_LABELS[nextOfferedTheme(theme, ownsPack)]}`;
  return (
    <DeferredTooltip label={label} withArrow>
      <ActionIcon variant="default" size="lg" radius="xl" aria-label={label} onClick={() => cycleTheme(ownsPack)} {...props}>
        <Icon size={18} stroke={1.75} />
      </ActionIcon>
    </DeferredTooltip>
  );
}

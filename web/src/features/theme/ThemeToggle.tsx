import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { IconGhost2, IconMoon, IconSun, IconSunset2 } from '@tabler/icons-react';
import { DeferredTooltip } from '@/components/DeferredTooltip';
import { THEME_LABELS, nextTheme, type ThemeName } from './themes';
import { useThemeStore } from './theme-store';

export const THEME_ICONS: Record<ThemeName, typeof IconSun> = {
  light: IconSun,
  dark: IconMoon,
  spooky: IconGhost2,
  sunset: IconSunset2,
};

/** Cycles light → dark → spooky → sunset → light (spec 000 §2). */
export function ThemeToggle(props: ActionIconProps) {
  const theme = useThemeStore((s) => s.theme);
  const cycleTheme = useThemeStore((s) => s.cycleTheme);
  const Icon = THEME_ICONS[theme];
  const label = `Theme: ${THEME_LABELS[theme]}. Switch to ${THEME_LABELS[nextTheme(theme)]}`;
  return (
    <DeferredTooltip label={label} withArrow>
      <ActionIcon variant="default" size="lg" radius="xl" aria-label={label} onClick={cycleTheme} {...props}>
        <Icon size={18} stroke={1.75} />
      </ActionIcon>
    </DeferredTooltip>
  );
}

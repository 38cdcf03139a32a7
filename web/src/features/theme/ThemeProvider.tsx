import { useLayoutEffect, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ALL_CSS_RESOLVERS, ALL_MANTINE_THEMES, ALL_TOKENS } from './all-themes';
import { applyDocumentTheme, useThemeStore } from './theme-store';

interface ThemeProviderProps {
  children: ReactNode;
  /** 'test' turns off transitions and portals (Testing Library). */
  env?: 'default' | 'test';
}

/** MantineProvider in the stored theme; switching themes re-renders with the new variables. */
export function ThemeProvider({ children, env = 'default' }: ThemeProviderProps) {
  const theme = useThemeStore((s) => s.theme);
  useLayoutEffect(() => applyDocumentTheme(theme), [theme]);
  return (
    <MantineProvider
      theme={ALL_MANTINE_THEMES[theme]}
      forceColorScheme={ALL_TOKENS[theme].scheme}
      cssVariablesResolver={ALL_CSS_RESOLVERS[theme]}
      env={env}
    >
      {children}
    </MantineProvider>
  );
}

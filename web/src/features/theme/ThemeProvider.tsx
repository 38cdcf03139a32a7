import { useLayoutEffect, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { CSS_RESOLVERS, MANTINE_THEMES, TOKENS } from './themes';
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
      theme={MANTINE_THEMES[theme]}
      forceColorScheme={TOKENS[theme].scheme}
      cssVariablesResolver={CSS_RESOLVERS[theme]}
      env={env}
    >
      {children}
    </MantineProvider>
  );
}

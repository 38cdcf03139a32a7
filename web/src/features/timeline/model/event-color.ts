import { DEFAULT_EVENT_COLOR } from '@chronicler/schema';

/**
 * The CSS colour an event is drawn in. The spec's default (#6366f1, indigo) stands for "no colour
 * chosen", so it is drawn in the theme's primary colour (sunset, spooky…); a colour the
 * author picked is kept as is.
 */
export function eventCssColor(color: string): string {
  return color.trim() === '' || color.toLowerCase() === DEFAULT_EVENT_COLOR ? 'var(--mantine-primary-color-filled)' : color;
}

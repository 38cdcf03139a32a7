// Mantine's Tooltip (and Floating UI under it) as its own lazy chunk, for DeferredTooltip.
export { Tooltip as default } from '@mantine/core';

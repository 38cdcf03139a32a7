// The app's overlays come from here, and only from here (eslint/web-layers.js bans importing
// Mantine's Tooltip, Popover, HoverCard, Menu, Modal, Drawer and Dialog anywhere else): a closed
// Mantine overlay mounted in a first screen costs a synchronous re-render inside its first commit
// and Floating UI's download (README.md here). Tooltips are DeferredTooltip; a popover or menu on
// a first screen is a DeferredPopover whose lazy layer draws the Popover or Menu below; a modal or
// drawer there is drawn inside OpenedOnce. A screen that is itself lazy draws them directly.
export { Drawer, Menu, Modal, Popover } from '@mantine/core';

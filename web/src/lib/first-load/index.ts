// First-load work, in one place (README.md here): the two moments everything secondary is
// scheduled against, the staged reveal, lazy modules and screens, the live channel's policy, and
// the app's overlays. Only re-exports: the build treats this index as free of side effects
// (vite.config.ts), so a module that takes one export does not pull in the others.
export { FIRST_SCREEN_DELAY_MS, afterFirstPaint, afterFirstScreen } from './moments';
export { afterPaint, afterPresented } from './paint';
export { useStagedReveal } from './stagedReveal';
export { deferredModule, type DeferredModule } from './deferredModule';
export { preloadableLazy, type PreloadableLazy } from './preloadableLazy';
export { WEB_MANIFEST_HREF, linkWebManifest } from './webManifest';
export { LIVE_CHANNEL_DELAY_MS, liveChannelPolicy, wantLiveChannel } from './liveChannel';
export { DeferredTooltip, type DeferredTooltipProps } from './DeferredTooltip';
export { DeferredPopover, type DeferredPopoverProps, type PopoverLayerProps } from './DeferredPopover';
export { OpenedOnce } from './OpenedOnce';
export { AttachTarget } from './AttachTarget';
export { Drawer, Menu, Modal, Popover } from './overlays';

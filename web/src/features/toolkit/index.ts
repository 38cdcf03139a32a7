export { ToolkitScreen } from './ToolkitScreen';
export { PLOT_TEMPLATES } from './templates';

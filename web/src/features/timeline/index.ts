export { TimelineScreen } from './TimelineScreen';

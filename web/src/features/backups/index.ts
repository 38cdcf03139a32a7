export { BackupsScreen } from './BackupsScreen';

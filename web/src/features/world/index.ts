export { WorldScreen } from './WorldScreen';

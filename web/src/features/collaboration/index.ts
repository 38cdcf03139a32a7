/** Collaboration (docs/server.md#collaboration): the /collaboration screen. */
export { CollaborationScreen } from './components/CollaborationScreen';

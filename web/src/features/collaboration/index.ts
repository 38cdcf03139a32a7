/** Collaboration (issue 13): the /collaboration screen. */
export { CollaborationScreen } from './components/CollaborationScreen';

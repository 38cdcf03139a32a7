export { CompanionScreen } from './CompanionScreen';
export { WritersCompanionPanel } from './WritersCompanionPanel';

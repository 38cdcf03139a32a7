export { AccountSettingsScreen } from './AccountSettingsScreen';

import { AccountSettingsScreen } from '@/features/account';

export default function AccountRoute() {
  return <AccountSettingsScreen />;
}

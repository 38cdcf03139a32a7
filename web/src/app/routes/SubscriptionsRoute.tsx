import { SubscriptionsScreen } from '@/features/billing';

export default function SubscriptionsRoute() {
  return <SubscriptionsScreen />;
}

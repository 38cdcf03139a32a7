import { CheckoutScreen } from '@/features/billing/checkout';

export default function CheckoutRoute() {
  return <CheckoutScreen />;
}

import { IconCreditCard } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function SubscriptionsRoute() {
  return (
    <PagePlaceholder
      title="Subscription Plans"
      subtitle="Choose the plan that fits your saga"
      description="Compare the Apprentice, Wordsmith, Loremaster and Legendary Chronicler plans and subscribe."
      icon={<IconCreditCard size={30} stroke={1.5} />}
    />
  );
}

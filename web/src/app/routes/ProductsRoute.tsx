import { IconShoppingBag } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function ProductsRoute() {
  return (
    <PagePlaceholder
      title="Premium Products"
      subtitle="One-time extras for your writing"
      description="Theme packs, the writer's toolkit, inspiration packs, premium support and gift subscriptions."
      icon={<IconShoppingBag size={30} stroke={1.5} />}
    />
  );
}

/**
 * /products (spec 000 §2): the five premium products with their benefits, owned ones
 * marked, Purchase Now → /checkout?productId={id}&amount={price}; the author's gift codes and, with
 * Premium Support (or a plan that includes it), the priority support form and its remaining days.
 * Ownership comes from the entitlements on this device, so the page renders offline; buying needs
 * a connection.
 */
import './styles';
import { SimpleGrid } from '@mantine/core';
import { DEFAULT_PLAN, PRODUCTS } from '@chronicler/schema';
import { PageHeader } from '@/components/PageHeader';
import { OfflineNote } from '@/components/SeriesListScreen';
import { useSession } from '@/lib/session';
import { GiftCodes } from './GiftCodes';
import { ProductCard } from './ProductCard';
import { SupportPanel } from './SupportPanel';
import { useBilling } from './useBilling';

export function ProductsScreen() {
  const plan = useSession((s) => s.user?.plan ?? DEFAULT_PLAN);
  const { owned, online, entitlements } = useBilling();
  return (
    <>
      <PageHeader title="Premium Products" subtitle="One-time extras for your writing" />
      <OfflineNote mb="md" />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {PRODUCTS.map((product) => (
          <ProductCard key={product.id} product={product} owned={owned.has(product.id)} online={online} />
        ))}
      </SimpleGrid>
      <GiftCodes entitlements={entitlements} />
      <SupportPanel plan={plan} entitlements={entitlements} online={online} />
    </>
  );
}

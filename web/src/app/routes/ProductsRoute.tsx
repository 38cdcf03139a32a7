import { ProductsScreen } from '@/features/billing';

export default function ProductsRoute() {
  return <ProductsScreen />;
}

export { SubscriptionsScreen } from './SubscriptionsScreen';
export { ProductsScreen } from './ProductsScreen';
export { useBilling } from './useBilling';

import { WorldScreen } from '@/features/world';

export default function WorldRoute() {
  return <WorldScreen />;
}

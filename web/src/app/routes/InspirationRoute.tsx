import { InspirationScreen } from '@/features/inspiration';

export default function InspirationRoute() {
  return <InspirationScreen />;
}

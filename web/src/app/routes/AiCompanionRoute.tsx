import { CompanionScreen } from '@/features/companion';

export default function AiCompanionRoute() {
  return <CompanionScreen />;
}

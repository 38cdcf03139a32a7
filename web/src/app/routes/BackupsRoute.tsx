import { BackupsScreen } from '@/features/backups';

export default function BackupsRoute() {
  return <BackupsScreen />;
}

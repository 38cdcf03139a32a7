import { CollaborationScreen } from '@/features/collaboration';

export default function CollaborationRoute() {
  return <CollaborationScreen />;
}

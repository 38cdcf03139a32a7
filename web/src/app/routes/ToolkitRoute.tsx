import { ToolkitScreen } from '@/features/toolkit';

export default function ToolkitRoute() {
  return <ToolkitScreen />;
}

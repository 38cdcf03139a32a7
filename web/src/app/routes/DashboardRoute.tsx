import { IconLayoutDashboard } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';
import { useSession } from '@/lib/session';

/** "Welcome back, {first word of the display name, or Author}" (spec 000 §2 Dashboard). */
export function greetingName(displayName: string | undefined): string {
  return displayName?.trim().split(/\s+/)[0] || 'Author';
}

export default function DashboardRoute() {
  const displayName = useSession((s) => s.user?.displayName);
  return (
    <PagePlaceholder
      title={`Welcome back, ${greetingName(displayName)}`}
      subtitle="Your writing journey continues today"
      description="Words today, your streak, badges and your current project will gather here."
      icon={<IconLayoutDashboard size={30} stroke={1.5} />}
    />
  );
}

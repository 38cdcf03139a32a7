import { LoginScreen } from '@/features/auth';
import { ThemeToggle } from '@/features/theme';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export default function LoginRoute() {
  useDocumentTitle('Log in');
  return <LoginScreen themeToggle={<ThemeToggle />} />;
}

import { AuthScreen } from '@/features/auth';
import { ThemeToggle } from '@/features/theme';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export default function AuthRoute() {
  useDocumentTitle('Sign in');
  return <AuthScreen themeToggle={<ThemeToggle />} />;
}

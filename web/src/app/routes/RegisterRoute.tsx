import { RegisterScreen } from '@/features/auth';
import { ThemeToggle } from '@/features/theme';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export default function RegisterRoute() {
  useDocumentTitle('Create account');
  return <RegisterScreen themeToggle={<ThemeToggle />} />;
}

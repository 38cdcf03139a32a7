import type { Location } from 'react-router';

/** Where to go after signing in: back to the protected page that sent the author here, else "/". */
export function redirectTarget(location: Location): string {
  const from = (location.state as { from?: { pathname?: string; search?: string; hash?: string } } | null)?.from;
  if (!from?.pathname || from.pathname.startsWith('/auth') || from.pathname === '/login' || from.pathname === '/register') {
    return '/';
  }
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

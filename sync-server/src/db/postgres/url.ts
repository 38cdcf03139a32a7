/**
 * DATABASE_URL for PostgreSQL: checked before anything connects, and shown in messages without its
 * password (docs/server.md#postgresql).
 */

/** Whether `location` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL with any password replaced by `***`, for messages and logs. */
export function redactedUrl(location: string): string {
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    // Unparseable: keep the scheme and host-ish part only, never what could be a password.
    return location.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/**
 * What is wrong with a PostgreSQL URL, or null when it is usable: a parseable URL with a host and a
 * database name. The message never contains the password.
 */
export function postgresUrlProblem(location: string): string | null {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return `DATABASE_URL is not a valid URL (${redactedUrl(location)}); expected postgres://user:password@host:5432/database`;
  }
  if (!isPostgresUrl(location)) return `DATABASE_URL must start with postgres:// or postgresql:// (got ${url.protocol}//…)`;
  if (!url.hostname && !url.searchParams.get('host')) return `DATABASE_URL names no host (${redactedUrl(location)})`;
  if (url.pathname.replace(/^\//, '') === '') return `DATABASE_URL names no database (${redactedUrl(location)}); add /<database> after the host`;
  if (url.port && !/^\d+$/.test(url.port)) return `DATABASE_URL has an invalid port (${redactedUrl(location)})`;
  return null;
}

/** The database name the URL points at. */
export function databaseName(location: string): string {
  return decodeURIComponent(new URL(location).pathname.replace(/^\//, ''));
}

/** The same server and credentials, another database. */
export function withDatabase(location: string, name: string): string {
  const url = new URL(location);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

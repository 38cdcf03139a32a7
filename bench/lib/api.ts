/**
 * A small HTTP client for setting up and checking the real server over real HTTP (keep-alive,
 * session cookie), and the story every bench starts from: a registered author, a series, books.
 */
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export class ApiClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  cookie: string | null = null;

  constructor(readonly baseUrl: string) {}

  /** `raw`: a body of bytes sent as they are (its content type in `headers`) instead of JSON. */
  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, raw?: Buffer): Promise<RawResponse> {
    const json = raw === undefined && body !== undefined;
    const payload = raw ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            ...(json ? { 'content-type': 'application/json' } : {}),
            ...(payload ? { 'content-length': String(payload.length) } : {}),
            ...(this.cookie ? { cookie: this.cookie } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A 2xx JSON answer, or an error naming the call and the server's message. */
  async json<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    const res = await this.request(method, path, body, headers);
    if (res.status < 200 || res.status >= 300) {
      throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
    }
    return JSON.parse(res.body.toString('utf8')) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface Row {
  id: string;
  rev: number;
}

export interface BenchStory {
  client: ApiClient;
  userId: string;
  seriesId: string;
  bookIds: string[];
}

/** Registers a fresh author (production scrypt cost: ~0.3 s, once) and keeps the session cookie. */
export async function signUp(client: ApiClient): Promise<string> {
  const username = `bench_${process.pid}_${Date.now()}`;
  const res = await client.request('POST', '/api/register', {
    username,
    password: 'correct horse battery staple',
    displayName: 'Bench Author',
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${res.body.toString('utf8')}`);
  const setCookie = res.headers['set-cookie'] ?? [];
  const session = setCookie.map((c) => c.split(';')[0]!).find((c) => c.startsWith('chronicler_session='));
  if (!session) throw new Error('register set no session cookie');
  client.cookie = session;
  return (JSON.parse(res.body.toString('utf8')) as { id: string }).id;
}

/** An author with a series of `books` books, all made through the API. */
export async function createStory(baseUrl: string, books: number): Promise<BenchStory> {
  const client = new ApiClient(baseUrl);
  const userId = await signUp(client);
  const series = await client.json<Row>('POST', '/api/series', { title: 'The Lantern Cycle', description: 'A bench series', totalBooks: books });
  const bookIds: string[] = [];
  for (let i = 1; i <= books; i++) {
    const book = await client.json<Row>('POST', '/api/books', { seriesId: series.id, title: `Book ${i}` });
    bookIds.push(book.id);
  }
  return { client, userId, seriesId: series.id, bookIds };
}

let registered = 0;
/** A fresh author named after `name`, with an email (invites name members by it), signed in. */
export async function register(baseUrl: string, name: string): Promise<{ client: ApiClient; userId: string; email: string }> {
  registered += 1;
  const client = new ApiClient(baseUrl);
  const username = `${name}_${process.pid}_${registered}`;
  const email = `${username}@example.com`;
  const res = await client.request('POST', '/api/register', { username, password: 'correct horse battery staple', displayName: name, email });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${res.body.toString('utf8')}`);
  client.cookie = String(res.headers['set-cookie']).match(/chronicler_session=[^;]+/)![0];
  return { client, userId: (JSON.parse(res.body.toString('utf8')) as { id: string }).id, email };
}

/** `member` joins the shared series `seriesId` in `role`: the owner invites, the member accepts. */
export async function join(owner: ApiClient, member: { client: ApiClient; email: string }, seriesId: string, role: string): Promise<void> {
  const invite = await owner.json<Row>('POST', `/api/collaboration/series/${seriesId}/invites`, { inviteeEmail: member.email, role });
  await member.client.json('POST', `/api/collaboration/invites/${invite.id}/accept`);
}

/**
 * Fuzzing every route of the REAL route table with malformed requests (fast-check): random and
 * near-valid JSON (one field wrong: type, size, unicode, hostile numbers, nesting, prototype keys),
 * broken JSON, wrong content types, random query strings and path params, odd sync headers, as the
 * owner, another author and anonymous. Invariants (docs/server.md#security): no 5xx; every 4xx is
 * `{message, code}`; no SQL, stack or file path text in any answer; nothing of B's in A's answers.
 *
 * FUZZ_RUNS (default 200) sets the runs per route; FUZZ_SEED replays a failure.
 */
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { type Principal, paramValue } from './support/cases.ts';
import { createWorld, secretsOf } from './support/fixtures.ts';
import { answerProblems, contentTypeArb, enc, invalidJsonArb, jsonTokenArb, nearValidBodyArb, pathParamArb, queryArb, syncHeadersArb } from './support/malformed.ts';
import { ROUTE_POLICY } from './support/policy.ts';
import { type RouteEntry, apiRoutes, buildAppWithRoutes, send } from './support/routes.ts';

const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

const table = await buildAppWithRoutes();
const ROUTES = apiRoutes(table.routes);
await table.close();

const report: string[] = [];
afterAll(() => {
  console.log(`fuzz: ${ROUTES.length} routes × ${NUM_RUNS} runs\n${report.join('\n')}`);
});

/** How the body of a fuzzed request is made. */
function bodyArb(valid: unknown): fc.Arbitrary<string | undefined> {
  const base = valid ?? {};
  return fc.oneof(
    { arbitrary: nearValidBodyArb(base), weight: 6 },
    { arbitrary: jsonTokenArb, weight: 2 },
    { arbitrary: invalidJsonArb(base), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: fc.constant(''), weight: 1 },
    { arbitrary: fc.constant(JSON.stringify(base)), weight: 1 },
  );
}

async function fuzzRoute(route: RouteEntry): Promise<void> {
  const started = Date.now();
  const { app, close } = await buildAppWithRoutes();
  try {
    const world = await createWorld(app);
    const policy = ROUTE_POLICY[route.key];
    const valid = policy?.request?.(world.a) ?? {};
    const allIds = [world.a, world.b].flatMap((side) => Object.values(side.ids).map(String));
    // Real values for each param: ids of the kind it names (own and foreign) so requests also get
    // past the lookup, plus ids of other kinds.
    const realFor = (name: string): string[] => {
      const kind = policy?.access === 'protected' ? policy.params?.[name] : undefined;
      if (!kind) return allIds;
      return [...[world.a, world.b].map((side) => paramValue(kind, side, side)), ...allIds.slice(0, 3)];
    };
    const secretsOfB = await secretsOf(app, world.b);
    const statuses = new Map<number, number>();

    // Wild requests: anything goes, from anyone.
    const wildArb = fc.record({
      principal: fc.constantFrom<Principal>('a', 'a', 'a', 'b', 'anonymous'),
      params: fc.tuple(...route.params.map((name) => pathParamArb(realFor(name)))),
      query: fc.oneof(fc.constant(valid.query), queryArb(valid.query)),
      body: bodyArb(valid.body),
      contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 3 }, { arbitrary: contentTypeArb, weight: 1 }),
      headers: syncHeadersArb,
    });
    // Deep requests: the owner's valid request with only the body (and sync headers) off, so the
    // handler code past validation and lookup (merges, reorders, cascades) meets odd input too.
    const ownParams = route.params.map((name) => {
      const kind = policy?.access === 'protected' ? policy.params?.[name] : undefined;
      return kind ? fc.constant({ value: paramValue(kind, world.a, world.a), raw: false }) : pathParamArb(realFor(name));
    });
    const deepArb = fc.record({
      principal: fc.constant<Principal>('a'),
      params: fc.tuple(...ownParams),
      query: fc.constant(valid.query),
      body: fc.oneof(fc.constant(valid.body === undefined ? undefined : JSON.stringify(valid.body)), nearValidBodyArb(valid.body ?? {})),
      contentType: fc.constant('application/json'),
      headers: syncHeadersArb,
    });
    const requestArb = fc.oneof({ arbitrary: wildArb, weight: 3 }, { arbitrary: deepArb, weight: 1 });

    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        const caller = req.principal === 'a' ? world.a : req.principal === 'b' ? world.b : null;
        let i = 0;
        const path = route.url.replace(/:[A-Za-z0-9_]+/g, () => {
          const param = req.params[i++]!;
          return param.raw ? param.value : enc(param.value);
        });
        const url = req.query ? `${path}?${req.query}` : path;
        const headers: Record<string, string> = { ...req.headers };
        if (caller) headers.cookie = caller.cookie;
        if (req.body !== undefined && req.contentType) headers['content-type'] = req.contentType;
        const answer = await send(app, { method: route.method as 'GET', url, headers, ...(req.body === undefined ? {} : { payload: req.body }) });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const requestText = `${url}\n${req.body ?? ''}\n${JSON.stringify(headers)}`;
        const problems = answerProblems(answer, requestText);
        if (caller === world.a) {
          for (const secret of secretsOfB) if (answer.body.includes(secret) && !requestText.includes(secret)) problems.push(`leak of B's ${secret}`);
        }
        if (problems.length > 0) {
          throw new Error(`${problems.join('; ')}\n${route.method} ${url.slice(0, 300)}\nbody: ${(req.body ?? '<none>').slice(0, 300)}\n→ ${answer.status} ${answer.body.slice(0, 500)}`);
        }
      }),
      { numRuns: NUM_RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: false },
    );

    const histogram = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    const runs = [...statuses.values()].reduce((a, b) => a + b, 0);
    report.push(`  ${route.key.padEnd(48)} ${String(runs).padStart(4)} requests  ${histogram}  ${Date.now() - started} ms`);
  } finally {
    await close();
  }
}

describe(`fuzz: every route, ${NUM_RUNS} malformed requests each`, () => {
  for (const route of ROUTES) {
    it(route.key, () => fuzzRoute(route), 120_000);
  }
});

/**
 * One request of the authz matrix: who calls, whose ids it carries, what came back, whether the
 * database changed, and whether the answer carried anything of the other author's.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Side, unknownId } from './fixtures.ts';
import type { ParamKind, RoutePolicy, ValidRequest } from './policy.ts';
import { type Answer, type RouteEntry, fillPath, send } from './routes.ts';
import { diffSnapshots, snapshotDatabase } from './snapshot.ts';

export type Principal = 'anonymous' | 'a' | 'b';

/** Whose ids fill each path param: a side, or a fresh unknown id. */
export type IdSource = Side | 'unknown';

export interface CaseOutcome {
  answer: Answer;
  /** Rows of the database that differ after the call (bookkeeping tables excluded). */
  changedRows: number;
  changes: string[];
  /** Secrets of the other author found in the answer, that the request did not itself carry. */
  leaked: string[];
  requestText: string;
}

export function paramValue(kind: ParamKind, source: IdSource, caller: Side | null): string {
  if (kind === 'chapterRev') {
    // A revision number is not secret by itself: take it from the side whose chapter is named.
    const side = source === 'unknown' ? caller : source;
    return String(side?.ids.chapterRev ?? 1);
  }
  if (kind === 'session') return source === 'unknown' ? 'unknownSessionId00000' : source.ids.session;
  if (kind === 'backup') return source === 'unknown' ? unknownId() : source.ids.backup;
  // The name an upload's bytes go by: for an unknown source, a hash no picture has.
  if (kind === 'pictureHash') return source === 'unknown' ? crypto.randomBytes(32).toString('hex') : source.ids.picture;
  return source === 'unknown' ? unknownId() : source.ids[kind];
}

export interface CaseSpec {
  route: RouteEntry;
  policy: RoutePolicy;
  caller: Side | null;
  /** Source of each path param's id (a param not named gets an unknown id). */
  sources: Record<string, IdSource>;
  /** The side a body is built for (the owner of the path ids, or the caller). */
  bodySide: Side;
  /** Secrets the caller must never see (the other author's). */
  secrets: ReadonlySet<string>;
  /** Take a before/after snapshot of the database (skip for cheap owner calls). */
  snapshot: boolean;
}

export function buildRequest(route: RouteEntry, caller: Side | null, pathValues: Record<string, string>, valid: ValidRequest) {
  const url = fillPath(route.url, pathValues) + (valid.query ? `?${valid.query}` : '');
  const hasBody = valid.body !== undefined;
  const headers: Record<string, string> = { ...(valid.headers ?? {}) };
  if (caller) headers.cookie = caller.cookie;
  if (valid.raw) {
    headers['content-type'] = valid.raw.type;
    return { method: route.method as 'GET', url, headers, payload: Buffer.from(valid.raw.bytes) };
  }
  if (hasBody) headers['content-type'] = 'application/json';
  return { method: route.method as 'GET', url, headers, ...(hasBody ? { payload: JSON.stringify(valid.body) } : {}) };
}

export async function runCase(app: FastifyInstance, spec: CaseSpec): Promise<CaseOutcome> {
  const params = spec.policy.access === 'protected' ? (spec.policy.params ?? {}) : {};
  const values: Record<string, string> = {};
  for (const name of spec.route.params) {
    const kind = params[name];
    if (!kind) throw new Error(`${spec.route.key}: the policy does not say what :${name} names`);
    values[name] = paramValue(kind, spec.sources[name] ?? 'unknown', spec.caller);
  }
  const valid = spec.policy.request?.(spec.bodySide) ?? {};
  const request = buildRequest(spec.route, spec.caller, values, valid);
  const before = spec.snapshot ? await snapshotDatabase(app) : null;
  const answer = await send(app, request);
  const diff = before ? diffSnapshots(before, await snapshotDatabase(app)) : { changedRows: 0, details: [] };
  const requestText = `${request.url}\n${typeof request.payload === 'string' ? request.payload : ''}`;
  const leaked = [...spec.secrets].filter((secret) => answer.body.includes(secret) && !requestText.includes(secret));
  return { answer, changedRows: diff.changedRows, changes: diff.details, leaked, requestText: `${request.method} ${requestText}` };
}

/** The request and its answer, shortened, for failure messages. */
export function describeAnswer(outcome: CaseOutcome): string {
  return `${outcome.requestText.slice(0, 400)}\n→ ${outcome.answer.status} ${outcome.answer.body.slice(0, 400)}`;
}


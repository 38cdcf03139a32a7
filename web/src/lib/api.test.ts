import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { ApiError, NetworkError, api, serverMessageOf } from './api';

describe('api client', () => {
  it('sends credentials and a JSON body, and parses the JSON answer', async () => {
    const { calls } = stubFetch({ 'POST /api/login': { status: 200, body: { id: 'u1' } } });
    await expect(api.post('/api/login', { username: 'a', password: 'b' })).resolves.toEqual({ id: 'u1' });
    const init = calls[0]?.init;
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"username":"a","password":"b"}');
  });

  it('sends no Content-Type without a body', async () => {
    const { calls } = stubFetch({ 'POST /api/logout': { status: 204 } });
    await expect(api.post('/api/logout')).resolves.toBeUndefined();
    expect((calls[0]?.init?.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect(calls[0]?.init?.body).toBeUndefined();
  });

  it('turns a non-OK answer into "status: body" and exposes the server message and code', async () => {
    stubFetch({ 'POST /api/login': { status: 401, body: { message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' } } });
    const error = await api.post('/api/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.message).toBe('401: {"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}');
    expect(e.status).toBe(401);
    expect(e.serverMessage).toBe('Invalid credentials');
    expect(e.code).toBe('INVALID_CREDENTIALS');
    expect(serverMessageOf(e, 'fallback')).toBe('Invalid credentials');
  });

  it('uses the status text when the body is empty', async () => {
    stubFetch({ 'GET /api/series': { status: 503 } });
    const e = (await api.get('/api/series').catch((x: unknown) => x)) as ApiError;
    expect(e.message).toMatch(/^503: /);
    expect(e.message).toBe(`503: ${new Response(null, { status: 503 }).statusText}`);
    expect(e.serverMessage).toBeUndefined();
    expect(serverMessageOf(e, 'fallback')).toBe('fallback');
  });

  it('treats 401 as an error by default, or as nothing when asked', async () => {
    stubFetch({ 'GET /api/user': { status: 401, body: { message: 'no', code: 'UNAUTHENTICATED' } } });
    await expect(api.get('/api/user')).rejects.toBeInstanceOf(ApiError);
    await expect(api.get('/api/user', { on401: 'returnNull' })).resolves.toBeNull();
  });

  it('reports a request that never reached the server as NetworkError', async () => {
    stubFetch({ 'GET /api/user': 'network-error' });
    await expect(api.get('/api/user')).rejects.toBeInstanceOf(NetworkError);
  });
});

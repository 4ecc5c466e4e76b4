import { startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ BODY_LIMIT: '2kb' });
});
afterAll(() => t.close());

describe('REST transport errors', () => {
  it('answers 404 Route not found for unknown paths', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/distributions/1/extra', '/elsewhere']) {
      const res = await t.http.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Route not found.' });
    }
  });

  it('answers 405 with an Allow header for a wrong method on a known path', async () => {
    const res = await t.http.delete('/api/v1/withdrawals/requests');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ success: false, message: 'Method not allowed.' });
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await t.http.post('/api/v1/auth/login').set('content-type', 'application/json').send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: 'Malformed JSON body.' });
  });

  it('answers 413 for an over-large body', async () => {
    const res = await t.http.post('/api/v1/auth/login').send({ email: 'x@y.z', password: 'p'.repeat(5000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, message: 'Payload too large.' });
  });

  it('answers 500 Server Error without leaking internals', async () => {
    const spy = jest.spyOn(t.services.distributions, 'list').mockRejectedValueOnce(new Error('relation "secret_table" does not exist at /src/x.ts:1'));
    const token = await t.token('investor@demo.test');
    const res = await t.http.get('/api/v1/distributions').set('authorization', `Bearer ${token}`);
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, message: 'Server Error.' });
    const gql = await t.gql('{ distributions { items { id } } }', {}, token);
    expect(gql.errors).toBeUndefined();
  });

  it('answers 503 while the database is unreachable', async () => {
    const token = await t.token('investor@demo.test');
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const spy = jest.spyOn(t.services.distributions, 'list').mockRejectedValueOnce(down);
    const res = await t.http.get('/api/v1/distributions').set('authorization', `Bearer ${token}`);
    spy.mockRestore();
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ success: false, message: 'Service temporarily unavailable.' });
  });

  it('masks unexpected GraphQL errors as INTERNAL_SERVER_ERROR', async () => {
    const token = await t.token('investor@demo.test');
    const spy = jest.spyOn(t.services.distributions, 'list').mockRejectedValueOnce(new Error('SELECT * FROM secrets'));
    const res = await t.gql('{ distributions { items { id } } }', {}, token);
    spy.mockRestore();
    expect(res.errors?.[0]).toMatchObject({ message: 'Server Error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(JSON.stringify(res)).not.toContain('secrets');
  });
});

describe('answer headers', () => {
  it('sends no ETag on either face: the answers are per-user data that nothing revalidates', async () => {
    const token = await t.token('investor@demo.test');
    const rest = await t.http.get('/api/v1/distributions').set('authorization', `Bearer ${token}`);
    const gql = await t.http.post('/graphql').set('authorization', `Bearer ${token}`).send({ query: '{ distributions { items { id } } }' });
    expect([rest.status, gql.status]).toEqual([200, 200]);
    expect([rest.headers.etag, gql.headers.etag]).toEqual([undefined, undefined]);
  });

  it('writes a REST answer with its media type, byte length and request id; HEAD with the same headers and no body', async () => {
    const token = await t.token('investor@demo.test');
    for (const path of ['/api/v1/distributions', '/api/v1/nope']) {
      const get = await t.http.get(path).set('authorization', `Bearer ${token}`);
      expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(get.headers['content-length'])).toBe(Buffer.byteLength(get.text));
      expect(get.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const head = await t.http.head(path).set('authorization', `Bearer ${token}`);
      expect([head.status, head.headers['content-type'], head.headers['content-length']]).toEqual([
        get.status,
        get.headers['content-type'],
        get.headers['content-length'],
      ]);
      expect(head.text ?? '').toBe('');
    }
  });
});

describe('REST input coercion', () => {
  it('answers 422, not 500, for a decimal the Decimal scalar refuses', async () => {
    const token = await t.token('investor@demo.test');
    for (const value of ['0.1234567', '1234567890123456', 'ten']) {
      const res = await t.http
        .post('/api/v1/withdrawals/requests')
        .set('authorization', `Bearer ${token}`)
        .send({ unit_id: 1, ownership_percentage: value, reason: 'x' });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['ownership_percentage']);
    }
  });
});

describe('GraphQL transport', () => {
  it('keeps CSRF prevention on: a simple GET without a preflight header is refused', async () => {
    const res = await t.http.get('/graphql?query=%7Bme%7Bid%7D%7D');
    expect(res.status).toBe(400);
  });

  it('refuses batched requests', async () => {
    const res = await t.http.post('/graphql').send([{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expect(res.status).toBe(400);
  });

  it('reports a value the Decimal scalar refuses as a client error, not INTERNAL_SERVER_ERROR', async () => {
    const token = await t.token('investor@demo.test');
    const create = 'mutation($input: CreateWithdrawalRequestInput!) { createWithdrawalRequest(input: $input) { id } }';
    const asVariable = await t.gql(create, { input: { unitId: 1, ownershipPercentage: 'lots', reason: 'x' } }, token);
    expect(asVariable.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const inline = await t.gql('mutation { createWithdrawalRequest(input: { unitId: 1, ownershipPercentage: "0.1234567", reason: "x" }) { id } }', {}, token);
    expect(inline.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(inline.errors?.[0].message).toMatch(/Decimal/);
  });

  it('allows introspection', async () => {
    const res = await t.gql('{ __schema { queryType { name } } }');
    expect(res.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.http.get('/healthz')).status).toBe(200);
    expect((await t.http.get('/readyz')).status).toBe(200);
    t.gateway.setReady(false);
    expect((await t.http.get('/readyz')).status).toBe(503);
    expect((await t.http.get('/api/v1/public/units')).status).toBe(503);
    t.gateway.setReady(true);
  });

  it('exposes Prometheus metrics', async () => {
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_request_duration_seconds');
  });
});

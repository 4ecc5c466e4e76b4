import { routeTable } from '../src/rest/routes';
import { startTestGateway, type TestGateway } from './support/harness';

/**
 * Checks that hold for every row of the REST route table at once, so a new route cannot forget them:
 * bearer routes answer 401 without a token (with the contract body), guest routes never do, and a
 * path id that is not a positive integer is a 404.
 */
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

const call = (method: string, path: string) => {
  const url = `/api/v1${path}`;
  switch (method) {
    case 'POST':
      return t.http.post(url).send({});
    case 'PUT':
      return t.http.put(url).send({});
    case 'DELETE':
      return t.http.delete(url).send({});
    default:
      return t.http.get(url);
  }
};

describe('every REST route', () => {
  it.each(routeTable.filter((r) => r.auth !== 'guest').map((r) => [r.method, r.path]))('%s %s answers 401 without a bearer token', async (method, path) => {
    const res = await call(method, path.replace(/:(\w+)/g, '1'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });

  it.each(routeTable.filter((r) => r.auth === 'guest').map((r) => [r.method, r.path]))('%s %s is open to guests', async (method, path) => {
    const res = await call(method, path.replace(/:(\w+)/g, '1'));
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(403);
  });

  it.each(routeTable.filter((r) => r.path.includes(':id')).map((r) => [r.method, r.path]))(
    '%s %s answers 404 for a path id that is not a positive integer',
    async (method, path) => {
      const token = await t.token('admin@demo.test');
      for (const id of ['abc', '0', '-1', '1.5']) {
        const url = `/api/v1${path.replace(':id', id)}`;
        const req = method === 'POST' ? t.http.post(url).send({}) : method === 'PUT' ? t.http.put(url).send({}) : t.http.get(url);
        const res = await req.set('authorization', `Bearer ${token}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
      }
    },
  );
});

describe('security headers', () => {
  it('are set by helmet on API answers; HSTS only on a request that came over TLS', async () => {
    const res = await t.http.get('/api/v1/public/categories');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // Plain HTTP, and an untrusted client claiming HTTPS (TRUST_PROXY unset): no HSTS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect((await t.http.get('/api/v1/public/categories').set('X-Forwarded-Proto', 'https')).headers['strict-transport-security']).toBeUndefined();
  });

  it('HSTS behind a trusted proxy that terminated TLS (X-Forwarded-Proto: https), not for its plain HTTP', async () => {
    const proxied = await startTestGateway({ TRUST_PROXY: 'true' });
    try {
      const secure = await proxied.http.get('/api/v1/public/categories').set('X-Forwarded-Proto', 'https');
      expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
      const plain = await proxied.http.get('/api/v1/public/categories').set('X-Forwarded-Proto', 'http');
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});

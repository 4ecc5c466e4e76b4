import { startTestGateway, type TestGateway } from './support/harness';

const DASHBOARD = 'https://dashboard.example.com';
const preflight = (gw: TestGateway, path: string, origin: string) =>
  gw.http.options(path).set('Origin', origin).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'content-type,authorization');

describe('CORS with CORS_ORIGINS set', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ CORS_ORIGINS: `${DASHBOARD}, http://localhost:5173` });
  });
  afterAll(() => gw.close());

  it.each(['/graphql', '/api/v1/auth/login'])('answers a preflight to %s from a listed origin, without credentials', async (path) => {
    const res = await preflight(gw, path, DASHBOARD);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toBe('content-type,authorization');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('allows each listed origin on the actual request and exposes the headers a client acts on', async () => {
    const res = await gw.http.get('/api/v1/legal/privacy-policy').set('Origin', 'http://localhost:5173');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const exposed = String(res.headers['access-control-expose-headers']).split(/\s*,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(['X-Request-Id', 'Idempotent-Replayed', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'WWW-Authenticate']),
    );
  });

  it('gives an unlisted origin no CORS headers', async () => {
    const pre = await preflight(gw, '/graphql', 'https://evil.example.com');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await gw.http.get('/api/v1/legal/privacy-policy').set('Origin', 'https://evil.example.com');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS by default (CORS_ORIGINS unset)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it.each(['/graphql', '/api/v1/auth/login', '/api/v1/portfolio'])(
    'answers a preflight to %s with 204 and no Allow-Origin (the browser then refuses), not a 400 or 405',
    async (path) => {
      const res = await preflight(gw, path, DASHBOARD);
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  it('allows no cross-origin access', async () => {
    const pre = await preflight(gw, '/graphql', DASHBOARD);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await gw.http.get('/api/v1/legal/privacy-policy').set('Origin', DASHBOARD);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

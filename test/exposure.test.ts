import jwt from 'jsonwebtoken';
import request from 'supertest';
import { loadConfig } from '../src/platform/config';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-forty-characters!' };
const DEV_SECRET = loadConfig({}).jwtSecret;

let dev: TestGateway;
let prod: TestGateway;
beforeAll(async () => {
  [dev, prod] = await Promise.all([startTestGateway(), startTestGateway(PRODUCTION)]);
});
afterAll(() => Promise.all([dev.close(), prod.close()]));

async function gqlAs(t: TestGateway, query: string, email?: string) {
  const token = email ? await t.token(email) : undefined;
  const req = t.http.post('/graphql').set('content-type', 'application/json');
  if (token) req.set('authorization', `Bearer ${token}`);
  return req.send({ query });
}

describe('GraphiQL (/graphiql) in production', () => {
  it('is served (the page alone exposes nothing), while its introspection follows the rule below', async () => {
    const page = await prod.http.get('/graphiql');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/graphiql/graphiql.js');
    expect((await gqlAs(prod, '{ __schema { queryType { name } } }')).status).toBe(400);
  });
});

describe('introspection and field suggestions (contract §3)', () => {
  const SCHEMA = '{ __schema { mutationType { fields { name } } } }';
  const TYPE = '{ __type(name: "Mutation") { name } }';
  const TYPO = '{ publicUnitz { items { id } } }';

  it('in production: refused to guests and investors (400, GRAPHQL_VALIDATION_FAILED), served to admins and analysts', async () => {
    for (const who of [undefined, DEMO_EMAILS.investor]) {
      for (const query of [SCHEMA, TYPE]) {
        const res = await gqlAs(prod, query, who);
        expect(res.status).toBe(400);
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
        expect(res.body.errors[0].message).toMatch(/introspection has been disabled/);
      }
    }
    for (const who of [DEMO_EMAILS.admin, DEMO_EMAILS.analyst]) {
      const res = await gqlAs(prod, SCHEMA, who);
      expect(res.status).toBe(200);
      expect(res.body.data.__schema.mutationType.fields.map((f: { name: string }) => f.name)).toContain('login');
    }
    expect((await gqlAs(prod, '{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
  });

  it('in production: "Did you mean …" only for admins and analysts', async () => {
    for (const who of [undefined, DEMO_EMAILS.investor]) {
      const res = await gqlAs(prod, TYPO, who);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toBe('Cannot query field "publicUnitz" on type "Query".');
    }
    const enumTypo = await gqlAs(prod, '{ publicUnits(filter: { status: AVAILABEL }) { items { id } } }');
    expect(enumTypo.body.errors[0].message).not.toMatch(/Did you mean/);
    expect((await gqlAs(prod, TYPO, DEMO_EMAILS.analyst)).body.errors[0].message).toMatch(/Did you mean .*"publicUnits"/);
  });

  it('outside production: on for everyone', async () => {
    expect((await gqlAs(dev, SCHEMA)).body.data.__schema.mutationType.fields.length).toBeGreaterThan(10);
    expect((await gqlAs(dev, TYPO)).body.errors[0].message).toMatch(/Did you mean .*"publicUnits"/);
  });
});

describe('/metrics', () => {
  it('public outside production; not served on the API port in production without METRICS_TOKEN or METRICS_PORT', async () => {
    expect((await dev.http.get('/metrics')).text).toContain('http_request_duration_seconds');
    const res = await prod.http.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('http_request_duration_seconds');
  });

  it('METRICS_TOKEN: a bearer token is needed (401 without or with a wrong one)', async () => {
    const t = await startTestGateway({ ...PRODUCTION, METRICS_TOKEN: 'metrics-secret' });
    try {
      expect((await t.http.get('/metrics')).status).toBe(401);
      expect((await t.http.get('/metrics').set('authorization', 'Bearer wrong')).status).toBe(401);
      const ok = await t.http.get('/metrics').set('authorization', 'Bearer metrics-secret');
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('db_queries_sent');
    } finally {
      await t.close();
    }
  });

  it('METRICS_PORT: served by the separate listener only', async () => {
    const t = await startTestGateway({ ...PRODUCTION, METRICS_PORT: '0' });
    try {
      expect((await t.http.get('/metrics')).status).toBe(404);
      expect(t.gateway.metricsServer).toBeDefined();
      const res = await request(t.gateway.metricsServer!).get('/metrics');
      expect(res.status).toBe(200);
      expect(res.text).toContain('http_request_duration_seconds');
    } finally {
      await t.close();
    }
  });
});

describe('API reference assets', () => {
  it('serves the page and the two files it loads, nothing else of swagger-ui-dist', async () => {
    expect((await prod.http.get('/api/v1/docs')).status).toBe(200);
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) expect((await prod.http.get(`/api/v1/docs/${file}`)).status).toBe(200);
    for (const file of ['package.json', 'swagger-ui-bundle.js.map', 'swagger-ui.js.map', 'index.html', 'README.md', '..%2Fpackage.json']) {
      const res = await prod.http.get(`/api/v1/docs/${file}`);
      expect([file, res.status]).toEqual([file, 404]);
    }
  });
});

describe('token answers are not cached', () => {
  it('REST login, register and refresh carry Cache-Control: no-store, errors included', async () => {
    const login = await prod.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD });
    expect(login.headers['cache-control']).toBe('no-store');
    const refresh = await prod.http.post('/api/v1/auth/refresh').send({ refresh_token: login.body.data.refresh_token });
    expect(refresh.status).toBe(200);
    expect(refresh.headers['cache-control']).toBe('no-store');
    const register = await prod.http
      .post('/api/v1/auth/register')
      .send({ name: 'No Store', email: 'no.store@example.com', password: 'Secret123', password_confirmation: 'Secret123' });
    expect(register.status).toBe(201);
    expect(register.headers['cache-control']).toBe('no-store');
    expect((await prod.http.post('/api/v1/auth/login').send({ email: DEMO_EMAILS.investor, password: 'wrong' })).headers['cache-control']).toBe('no-store');
  });

  it('GraphQL answers (login and refreshToken among them) carry it too', async () => {
    const res = await prod.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ query: `mutation { login(email: "${DEMO_EMAILS.investor}", password: "${DEMO_PASSWORD}") { accessToken refreshToken } }` });
    expect(res.body.data.login.accessToken).toEqual(expect.any(String));
    expect(res.headers['cache-control']).toBe('no-store');
    const refreshed = await prod.http
      .post('/graphql')
      .set('content-type', 'application/json')
      .send({ query: `mutation { refreshToken(refreshToken: "${res.body.data.login.refreshToken}") { accessToken } }` });
    expect(refreshed.body.data.refreshToken.accessToken).toEqual(expect.any(String));
    expect(refreshed.headers['cache-control']).toBe('no-store');
  });
});

describe('the development JWT secret in production', () => {
  it('refuses to start with it, or with a short secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: DEV_SECRET })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short-secret' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    expect(loadConfig(PRODUCTION).jwtSecret).toBe(PRODUCTION.JWT_SECRET);
  });

  it('a token signed with it is rejected by a production gateway, for a live session', async () => {
    const token = await prod.token(DEMO_EMAILS.admin);
    const claims = jwt.decode(token) as Record<string, unknown>;
    const { iat: _i, exp: _e, ...payload } = claims;
    const forged = jwt.sign(payload, DEV_SECRET, { algorithm: 'HS256', expiresIn: 600 });
    expect((await prod.http.get('/api/v1/auth/me').set('authorization', `Bearer ${token}`)).status).toBe(200);
    const res = await prod.http.get('/api/v1/auth/me').set('authorization', `Bearer ${forged}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});

import express from 'express';
import request from 'supertest';
import { deprecationHeaders } from '../src/rest/deprecation';
import { buildOpenApi } from '../src/rest/openapi';
import { loadOperations } from '../src/rest/operations';
import { route, type RestRoute } from '../src/rest/route';
import { createRestHandler } from '../src/rest/router';
import { routeTable } from '../src/rest/routes';
import { startTestGateway, type TestGateway } from './support/harness';

/**
 * docs/api.md, "Deprecation policy": no route is deprecated today, so these tests deprecate two in
 * a route table of their own, serve it as the gateway serves /api/v1, and read the headers.
 */
const CHANGELOG = 'https://changelog.example/CHANGELOG.md#rest-deprecated-public-units';
const deprecated = { since: '2026-12-01', sunset: '2027-06-01', changelog: CHANGELOG };
const find = (method: string, path: string) => routeTable.find((r) => r.method === method && r.path === path)!;
const table: RestRoute<unknown>[] = [
  route({ ...find('GET', '/public/units'), deprecated }),
  route({ ...find('GET', '/distributions'), deprecated }),
  find('GET', '/public/categories'),
];

let t: TestGateway;
let http: ReturnType<typeof request>;
beforeAll(async () => {
  t = await startTestGateway();
  const app = express();
  app.use('/api/v1', createRestHandler(t.gateway.schema, loadOperations(), t.services, { maxFileBytes: 1024, maxRequestBytes: 2048 }, table));
  http = request(app);
});
afterAll(() => t.close());

const EXPECTED = {
  // 2026-12-01T00:00:00Z in Unix seconds (RFC 9745: an RFC 9651 Date).
  deprecation: '@1796083200',
  sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
  link: `<${CHANGELOG}>; rel="deprecation"; type="text/html"`,
};

describe('a deprecated REST route', () => {
  it('answers as before, with Deprecation, Sunset and a Link to the changelog entry', async () => {
    const res = await http.get('/api/v1/public/units?per_page=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: expect.any(Array) });
    expect(res.headers).toMatchObject(EXPECTED);
    expect(new Date(res.headers.sunset).toISOString()).toBe('2027-06-01T00:00:00.000Z');
  });

  it('says so on its error answers too', async () => {
    const res = await http.get('/api/v1/distributions');
    expect(res.status).toBe(401);
    expect(res.headers).toMatchObject(EXPECTED);
    const bad = await http.get('/api/v1/distributions?type=dividend').set('authorization', `Bearer ${await t.token('investor@demo.test')}`);
    expect(bad.status).toBe(422);
    expect(bad.headers).toMatchObject(EXPECTED);
  });

  it('leaves the other routes alone', async () => {
    const res = await http.get('/api/v1/public/categories');
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
  });

  it('is marked deprecated in the OpenAPI document, its headers documented', () => {
    type Operation = { deprecated?: boolean; description: string; responses: Record<string, { headers?: object }> };
    const doc = buildOpenApi(t.gateway.schema, loadOperations(), table) as { paths: Record<string, Record<string, Operation>> };
    const op = doc.paths['/public/units'].get;
    expect(op.deprecated).toBe(true);
    expect(op.description).toContain('Deprecated since 2026-12-01');
    expect(op.description).toContain(CHANGELOG);
    expect(Object.keys(op.responses['200'].headers ?? {})).toEqual(['Deprecation', 'Sunset', 'Link']);
    expect(doc.paths['/public/categories'].get).not.toHaveProperty('deprecated');
  });

  it('refuses, at start-up, a sunset sooner than the documented period or a changelog without its entry', () => {
    expect(() => deprecationHeaders({ ...deprecated, sunset: '2027-05-31' }, 'GET /x')).toThrow('less than 6 months');
    expect(() => deprecationHeaders({ ...deprecated, since: '1 Dec 2026' }, 'GET /x')).toThrow('not an ISO 8601 date');
    expect(() => deprecationHeaders({ ...deprecated, changelog: 'https://changelog.example/CHANGELOG.md' }, 'GET /x')).toThrow('#anchor');
  });
});

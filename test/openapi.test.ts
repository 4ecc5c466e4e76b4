import { readFileSync } from 'node:fs';
import { fromRoot } from '../src/paths';
import { routeTable } from '../src/rest/routes';
import { startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('is served at /api/v1/openapi.json and matches the committed docs/openapi.json', async () => {
    const res = await t.http.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body).toEqual(JSON.parse(readFileSync(fromRoot('docs', 'openapi.json'), 'utf8')));
  });

  it('documents every row of the route table with its parameters and envelope', async () => {
    const doc = (await t.http.get('/api/v1/openapi.json')).body;
    for (const r of routeTable) {
      const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op).toMatchObject({ summary: r.summary, operationId: r.operationId ?? r.operation });
      expect(op.description).toContain(r.description);
      expect(op.responses).toHaveProperty(String(r.status ?? 200));
      expect(op.security).toEqual(r.auth === 'guest' ? [] : [{ bearer: [] }]);
    }
    const list = doc.paths['/distributions'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'per_page', 'status', 'unit_id', 'period', 'from', 'to']));
    const item = list.responses['200'].content['application/json'].schema.properties.data.items;
    expect(Object.keys(item.properties)).toEqual(['id', 'unit_id', 'unit_name', 'period', 'type', 'gross_amount', 'net_amount', 'fees', 'status', 'distributed_at', 'created_at']);
    const withdrawals = doc.paths['/withdrawals/requests'];
    expect(withdrawals.get.responses['200'].content['application/json'].schema.properties).not.toHaveProperty('links');
    expect(withdrawals.post.requestBody.content['application/json'].schema.required.sort()).toEqual(['ownership_percentage', 'reason', 'unit_id']);
    expect(Object.keys(doc.paths['/statements/profit'].get.responses['200'].content)).toEqual(['application/pdf', 'text/csv']);
    expect(doc.paths['/downloads/{token}'].get.responses).toHaveProperty('404');
    expect(doc.paths['/auth/login'].post.responses['429'].$ref).toBe('#/components/responses/TooManyAttempts');
    expect(doc.components.responses.TooManyAttempts.headers).toHaveProperty('Retry-After');
    expect(withdrawals.post.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
  });

  it('serves an interactive reference from installed packages, no CDN', async () => {
    const page = await t.http.get('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/https?:\/\//);
    const assets = [...page.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect((await t.http.get(asset)).status).toBe(200);
  });
});

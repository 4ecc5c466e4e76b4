import { readFileSync } from 'node:fs';
import { fromRoot } from '../src/platform/paths';
import { routeTable } from '../src/rest/routes';
import type { Response } from 'supertest';
import { checkContract } from './support/contract';
import { startTestGateway, type TestGateway } from './support/harness';
import { DISTRIBUTION_KEYS } from './support/seed-decoders';

/** An answer as supertest hands it over, for checking the contract checker itself. */
const answer = (method: string, path: string, status: number, body: unknown, type = 'application/json') =>
  ({ req: { method, path: `/api/v1${path}` }, status, headers: { 'content-type': `${type}; charset=utf-8` }, body }) as unknown as Response;

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
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'per_page', 'status', 'unit_id', 'period', 'from', 'to']),
    );
    const item = list.responses['200'].content['application/json'].schema.properties.data.items;
    expect(Object.keys(item.properties)).toEqual(DISTRIBUTION_KEYS);
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

  it('embeds a captured example for every request and every answer that is not binary, each valid against its schema', async () => {
    const doc = JSON.parse(readFileSync(fromRoot('docs', 'openapi.json'), 'utf8'));
    const examples = JSON.parse(readFileSync(fromRoot('src', 'rest', 'openapi-examples.json'), 'utf8'));
    for (const [path, item] of Object.entries<
      Record<
        string,
        {
          requestBody?: { content: Record<string, { example?: unknown }> };
          responses: Record<string, { $ref?: string; content?: Record<string, { example?: unknown }> }>;
        }
      >
    >(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const media of Object.values(op.requestBody?.content ?? {}))
          expect({ path, method, example: media.example }).toMatchObject({ example: expect.anything() });
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {})) {
            if (type !== 'application/json' && type !== 'text/csv') continue; // PDFs and images: no example bytes
            expect({ path, method, status, example: media.example }).toMatchObject({ example: expect.anything() });
            if (type === 'application/json') checkContract(answer(method.toUpperCase(), path.replace(/\{\w+\}/g, '1'), Number(status), media.example));
          }
        }
      }
    }
    for (const [status, example] of Object.entries(examples.errors)) {
      const [path, method] = Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)
        .flatMap(([p, item]) => Object.entries(item).map(([m, op]) => [p, m, op] as const))
        .find(([, , op]) => status in op.responses)!;
      checkContract(answer(method.toUpperCase(), path.replace(/\{\w+\}/g, '1'), Number(status), example));
    }
  });

  it('fails an answer whose status, media type or body the document does not declare', () => {
    const ok = { success: true, data: { id: 1 } };
    expect(() => checkContract(answer('GET', '/distributions/7', 418, ok))).toThrow(/answered 418, a status docs\/openapi.json does not declare/);
    expect(() => checkContract(answer('GET', '/distributions/7', 200, 'x', 'text/html'))).toThrow(/with text\/html/);
    expect(() => checkContract(answer('GET', '/distributions/7', 200, ok))).toThrow(/refuses: data\/data must have required property 'unit_id'/);
    expect(() => checkContract(answer('GET', '/distributions/7', 404, { success: false }))).toThrow(/must have required property 'message'/);
    expect(() => checkContract(answer('GET', '/statements/profit', 200, Buffer.from('x'), 'text/csv'))).not.toThrow();
    expect(() => checkContract(answer('GET', '/no-such-route', 404, { success: false, message: 'Route not found.' }))).not.toThrow();
  });
});

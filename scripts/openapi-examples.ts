/**
 * `npm run openapi:examples`: captures a real request and answer for every REST route from the demo
 * data and writes them to src/rest/openapi-examples.json, which the OpenAPI generator embeds
 * (`npm run codegen` then writes docs/openapi.json).
 *
 * It seeds a fresh embedded database with the default demo data, runs the gateway in-process and
 * calls each route as the demo user who would (lists with per_page=2, other lists cut to their
 * first 2 items). The output is deterministic, so CI regenerates it and checks it is current: the
 * seed is fixed, the Host header is fixed, and the few values a run makes anew are normalised
 * (timestamps of records written during the run, tokens, today's date in statements).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import request, { type Response } from 'supertest';
import { createGateway } from '../src/app';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/db/database';
import { applyMigrations } from '../src/db/migrate';
import { DEMO_EMAILS, DEMO_PASSWORD, seedDemoData } from '../src/db/seed';
import { createLogger } from '../src/platform/logger';
import { fromRoot } from '../src/platform/paths';
import { routeTable } from '../src/rest/routes';
import { routeKey, type OpenApiExamples } from '../src/rest/openapi';
import { createServices } from '../src/services';
import { sha256 } from '../src/services/auth.service';

const HOST = 'localhost:4000';
/** Stands in for every timestamp of a record this run writes (the seed's own end of time). */
const RUN_TIMESTAMP = '2026-11-01T09:00:00+00:00';
const RUN_DATE = '2026-11-01';
const MASKED = { access_token: '<access token>', refresh_token: '<refresh token>' };
/** A 1×1 PNG: the smallest file the KYC upload accepts. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64');

type Body = Record<string, unknown>;
interface Call {
  token?: string;
  query?: Record<string, string | number>;
  body?: Body;
  multipart?: { fields: Record<string, string>; file: Buffer; fileName: string; type: string };
  /** The route-table path it exercises, when `path` has its parameters filled in. */
  route?: string;
}

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'openapi-examples-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, AUTH_RATE_LIMIT_PER_MINUTE: '30', LOG_LEVEL: 'silent' });
  const pglite = new PGlite();
  const db = await openDatabase({ pglite });
  await applyMigrations(db.adapterFactory);
  await seedDemoData(db.prisma);
  const logger = createLogger('silent');
  const services = createServices(db, config, logger);
  const gateway = await createGateway(config, db, services, logger);
  gateway.setReady(true);
  const http = request(gateway.app);
  const today = new Date().toISOString().slice(0, 10);

  /** Made anew by this run: masked or pinned so the file only changes when the API does. */
  const normalise = (value: unknown, key = '', depth = 0): unknown => {
    if (typeof value === 'string') {
      if (key in MASKED) return MASKED[key as keyof typeof MASKED];
      if (/^\d{4}-\d{2}-\d{2}T[\d:]+(?:[+-]\d{2}:\d{2}|Z)$/.test(value) && Date.parse(value) >= started - 60_000) return RUN_TIMESTAMP;
      return value.replaceAll(today, RUN_DATE).replace(/\/downloads\/[\w.-]+/g, '/downloads/<link token>');
    }
    if (Array.isArray(value)) return (depth > 0 ? value.slice(0, 2) : value).map((v) => normalise(v, '', depth + 1));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k, k === 'data' || depth > 0 ? depth + 1 : depth)]));
    }
    return value;
  };

  const examples: OpenApiExamples = { operations: {}, errors: {} };
  const send = (method: string, url: string, call: Call = {}) => {
    let req = http[method.toLowerCase() as 'get'](`/api/v1${url}`).set('host', HOST);
    if (call.token) req = req.set('authorization', `Bearer ${call.token}`);
    if (call.query) req = req.query(call.query);
    if (call.multipart) {
      for (const [k, v] of Object.entries(call.multipart.fields)) req = req.field(k, v);
      req = req.attach('file', call.multipart.file, { filename: call.multipart.fileName, contentType: call.multipart.type });
    } else if (call.body) req = req.send(call.body);
    return req;
  };
  const answer = (res: Response) =>
    normalise(
      res.type === 'text/csv'
        ? res.text
            .split(/(?<=\n)/)
            .slice(0, 6)
            .join('')
        : res.body,
    );
  /** Calls a route and records what was sent and answered under its route-table key. */
  const capture = async (method: string, url: string, call: Call = {}, expected?: number): Promise<Response> => {
    const res = await send(method, url, call);
    const key = `${method} ${call.route ?? url}`;
    if (expected !== undefined && res.status !== expected) throw new Error(`${key}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
    const entry = (examples.operations[key] ??= { responses: {} });
    if (call.body) entry.request ??= normalise(call.body);
    if (call.multipart) entry.request ??= { ...call.multipart.fields, file: `<${call.multipart.fileName}>` };
    if (res.type === 'application/json' || res.type === 'text/csv') entry.responses[res.status] = answer(res);
    return res;
  };
  const error = async (status: number, res: Response | Promise<Response>) => {
    const r = await res;
    if (r.status !== status) throw new Error(`expected a ${status} example, got ${r.status} ${JSON.stringify(r.body)}`);
    examples.errors[status] = normalise(r.body);
  };
  const login = async (email: string, password = DEMO_PASSWORD) =>
    (await send('POST', '/auth/login', { body: { email, password } })).body.data.access_token as string;
  const firstId = (res: Response) => (res.body.data as Array<{ id: number }>)[0].id;
  const byId = async (list: string, token: string | undefined, query: Call['query'] = { per_page: 2 }) => {
    const id = firstId(await capture('GET', list, { token, query }, 200));
    await capture('GET', `${list}/${id}`, { token, route: `${list}/:id` }, 200);
    return id;
  };

  // Reading, as the demo investor (their own data) and as a guest (public routes).
  const investorLogin = await capture('POST', '/auth/login', { body: { email: DEMO_EMAILS.investor, password: DEMO_PASSWORD, device_name: 'Pixel 8' } }, 200);
  const investor = investorLogin.body.data.access_token as string;
  const investorId = investorLogin.body.data.user.investor_id as number;
  for (const url of [
    '/auth/me',
    '/settings',
    '/dashboard',
    '/kyc/documents',
    '/kyc/status',
    '/portfolio/performance',
    '/category-memberships',
    '/withdrawals/requests',
    '/investment-requests',
  ]) {
    await capture('GET', url, { token: investor, query: url === '/withdrawals/requests' || url === '/investment-requests' ? { per_page: 2 } : undefined }, 200);
  }
  await byId('/categories', investor, undefined);
  const unitId = await byId('/units', investor, { per_page: 2, status: 'available' });
  await byId('/distributions', investor);
  await byId('/payouts', investor);
  await byId('/portfolio/transactions', investor);
  await capture('GET', '/investors', { token: investor, query: { per_page: 2 } }, 200);
  await capture('GET', `/investors/${investorId}`, { token: investor, route: '/investors/:id' }, 200);
  const portfolio = await capture('GET', `/investors/${investorId}/portfolio`, { token: investor, route: '/investors/:id/portfolio' }, 200);
  const available = await capture('GET', '/category-memberships/available-categories', { token: investor }, 200);
  const memberships = await send('GET', '/category-memberships', { token: investor });
  await capture('GET', `/category-memberships/${firstId(memberships)}`, { token: investor, route: '/category-memberships/:id' }, 200);
  const notificationId = await byId('/notifications', investor);
  for (const [url, format] of [
    ['/statements/profit', 'csv'],
    ['/statements/tax', 'csv'],
    ['/statements/portfolio-summary', 'csv'],
  ]) {
    await capture('GET', url, { token: investor, query: { format } }, 200);
  }
  await byId('/public/units', undefined);
  await byId('/public/categories', undefined, undefined);
  for (const url of ['/legal/privacy-policy', '/legal/terms-of-service', '/legal/investment-disclaimer', '/marketplace/config'])
    await capture('GET', url, {}, 200);
  const graphql = await http.post('/graphql').set('authorization', `Bearer ${investor}`).send({ query: '{ profitStatement(format: CSV) { url } }' });
  const link = graphql.body.data.profitStatement.url as string;
  await capture('GET', link.replace('/api/v1', ''), { route: '/downloads/:token' }, 200);

  // The investor's own changes.
  await capture('POST', `/notifications/${notificationId}/read`, { token: investor, route: '/notifications/:id/read' }, 200);
  await capture('POST', '/notifications/read-all', { token: investor }, 200);
  const categoryId = firstId(available);
  await capture('POST', '/category-memberships', { token: investor, body: { category_id: categoryId } }, 201);
  await capture('POST', '/category-memberships', { token: investor, body: { category_id: categoryId } }, 409);
  const unit = (await send('GET', `/units/${unitId}`, { token: investor })).body.data as { min_investment: number };
  await capture('POST', '/investment-requests', { token: investor, body: { unit_id: unitId, amount: unit.min_investment } }, 201);
  const holding = (portfolio.body.data.holdings as Array<{ unit: { id: number } }>)[0];
  await capture(
    'POST',
    '/withdrawals/requests',
    { token: investor, body: { unit_id: holding.unit.id, ownership_percentage: 0.5, reason: 'Funding a house purchase.' } },
    201,
  );

  // A new investor's account, from registration to deletion.
  const email = 'lukasz.muller@example.com';
  const registered = await capture(
    'POST',
    '/auth/register',
    {
      body: { name: 'Łukasz Müller', email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD, phone: '+48 600 100 200', device_name: 'iPhone 15' },
    },
    201,
  );
  const refreshToken = registered.body.data.refresh_token as string;
  await capture('POST', '/auth/refresh', { body: { refresh_token: refreshToken } }, 200);
  await capture('POST', '/auth/refresh', { body: { refresh_token: refreshToken } }, 401); // reuse revokes the session
  let fresh = await login(email);
  await capture('PUT', '/auth/me', { token: fresh, body: { name: 'Łukasz Müller-Nowak', phone: '+48 600 100 201' } }, 200);
  await capture('PUT', '/settings', { token: fresh, body: { push_enabled: false, notify_payouts: true } }, 200);
  await capture('POST', '/notifications/fcm-token', { token: fresh, body: { token: 'fcm-demo-device-token-0001', platform: 'android' } }, 201);
  await capture('POST', '/notifications/fcm-token', { token: fresh, body: { token: 'fcm-demo-device-token-0001', platform: 'android' } }, 200); // already theirs
  await capture('DELETE', '/notifications/fcm-token', { token: fresh, body: { token: 'fcm-demo-device-token-0001' } }, 200);
  // Not yet verified: investing and withdrawing are refused.
  await capture('POST', '/investment-requests', { token: fresh, body: { unit_id: unitId, amount: unit.min_investment } }, 409);
  await capture(
    'POST',
    '/withdrawals/requests',
    { token: fresh, body: { unit_id: holding.unit.id, ownership_percentage: 0.5, reason: 'Funding a house purchase.' } },
    409,
  );
  const uploaded = await capture(
    'POST',
    '/kyc/documents',
    { token: fresh, multipart: { fields: { document_type: 'passport' }, file: PNG, fileName: 'passport.png', type: 'image/png' } },
    201,
  );
  // The file comes back in its own type (PDF or image): the example records the call, not the bytes.
  await capture('GET', `/kyc/documents/${uploaded.body.data.id}/download`, { token: fresh, route: '/kyc/documents/:id/download' }, 200);
  await capture('POST', '/auth/password/forgot', { body: { email } }, 200);
  // The reset mail's token (the table keeps only its hash): one made here the same way.
  const resetToken = 'reset-token-from-the-email';
  const user = await db.prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  await db.prisma.passwordReset.create({ data: { userId: user.id, tokenHash: sha256(resetToken), expiresAt: new Date(Date.now() + 3_600_000) } });
  await capture(
    'POST',
    '/auth/password/reset',
    { body: { email, token: resetToken, password: 'NewPassword123!', password_confirmation: 'NewPassword123!' } },
    200,
  );
  fresh = await login(email, 'NewPassword123!');
  await capture(
    'PUT',
    '/auth/password',
    { token: fresh, body: { current_password: 'NewPassword123!', password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD } },
    200,
  );
  fresh = await login(email);
  await capture('DELETE', '/auth/me', { token: fresh, body: { password: DEMO_PASSWORD } }, 200);
  await capture('DELETE', '/auth/me', { token: investor, body: { password: DEMO_PASSWORD } }, 409); // still holds units
  await capture('POST', '/auth/logout', { token: await login(DEMO_EMAILS.analyst) }, 200);

  // One real answer per error status, shared by the routes that can give it.
  await error(400, send('POST', '/auth/login').set('content-type', 'application/json').send('{"email":'));
  await error(401, send('GET', '/auth/me'));
  await error(403, send('GET', '/statements/profit', { token: await login(DEMO_EMAILS.admin) }));
  await error(404, send('GET', '/distributions/999999', { token: investor }));
  await error(413, send('POST', '/auth/login', { body: { email: 'x'.repeat(2 * 1024 * 1024) } }));
  await error(415, send('POST', '/auth/login').set('content-type', 'text/plain').send('email=investor@demo.test'));
  await error(422, send('GET', '/distributions', { token: investor, query: { per_page: 0 } }));
  let limited: Response;
  do limited = await send('POST', '/auth/password/forgot', { body: { email } });
  while (limited.status === 200);
  await error(429, limited);
  gateway.setReady(false);
  await error(503, send('GET', '/marketplace/config'));

  const missing = routeTable.map(routeKey).filter((k) => !examples.operations[k]);
  if (missing.length) throw new Error(`no example captured for ${missing.join(', ')}`);
  const sorted = Object.fromEntries(Object.entries(examples.operations).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(fromRoot('src', 'rest', 'openapi-examples.json'), JSON.stringify({ operations: sorted, errors: examples.errors }, null, 2) + '\n');
  console.log(`wrote src/rest/openapi-examples.json (${Object.keys(sorted).length} routes); now run npm run codegen`);

  await gateway.stop();
  await db.close();
  await pglite.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

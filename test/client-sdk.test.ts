import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import {
  CancelWithdrawalDocument,
  createClient,
  CreateWithdrawalDocument,
  DistributionsDocument,
  GraphQLRequestError,
  InvestmentRequestUpdatedDocument,
  type InvestmentRequestUpdatedSubscription,
  LoginDocument,
  NotificationAddedDocument,
  type NotificationAddedSubscription,
  NotificationListDocument,
  PendingInvestmentRequestsDocument,
  PendingKycReviewsDocument,
  PendingWithdrawalRequestsDocument,
  persistedDocuments,
  PortfolioDocument,
  ReadAllNotificationsDocument,
  ReadNotificationDocument,
  RefreshSessionDocument,
  type SessionFieldsFragment,
  WithdrawalRequestsDocument,
  type Client,
} from '../client/src';
import { notify } from '../src/services/notification.service';
import { eventually } from './support/eventually';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';
import { liveClient } from './support/live';
import { budget } from './support/time-budget';

/** Every SDK operation, run through the SDK's own fetch helper against a listening gateway. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function listen(t: TestGateway): Promise<string> {
  await new Promise<void>((resolve) => t.gateway.server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(t.gateway.server.address() as AddressInfo).port}/graphql`;
}

/** The error a call threw (fails the test when it did not throw one). */
async function failure(call: Promise<unknown>): Promise<GraphQLRequestError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GraphQLRequestError);
  return error as GraphQLRequestError;
}

describe.each([
  ['document text, TRUSTED_DOCUMENTS=allow', 'allow', false],
  ['persisted ids only, TRUSTED_DOCUMENTS=only', 'only', true],
  // Apollo's own APQ: the helper registers each id (id + text) the first time the gateway misses it.
  ['persisted ids with APQ registration, TRUSTED_DOCUMENTS=off', 'off', true],
] as const)('client SDK: %s', (_name, mode, persisted) => {
  let t: TestGateway;
  let url: string;
  let sdk: Client;
  let investorToken: string;
  let adminToken: string;
  let investorId: number;
  let userId: number;

  beforeAll(async () => {
    t = await startTestGateway({ TRUSTED_DOCUMENTS: mode });
    url = await listen(t);
    sdk = createClient({ url, persisted });
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
    investorId = user.investor!.id;
    userId = user.id;
  });
  afterAll(() => t.close());

  it('Login and RefreshSession: tokens for the investor and the admin, a refreshed token that works', async () => {
    const login = await sdk.request(LoginDocument, { email: DEMO_EMAILS.investor, password: DEMO_PASSWORD }, {});
    expect(login.login.user).toMatchObject({ email: DEMO_EMAILS.investor, role: 'INVESTOR', investorId });
    const refreshed = await sdk.request(RefreshSessionDocument, { refreshToken: login.login.refreshToken });
    expect(refreshed.refreshToken.refreshToken).not.toBe(login.login.refreshToken);
    const { portfolio } = await sdk.request(PortfolioDocument, {}, { token: refreshed.refreshToken.accessToken });
    expect(portfolio.investorId).toBe(investorId);
    // Reusing the rotated refresh token ends the session: its newest access token stops working too.
    expect((await failure(sdk.request(RefreshSessionDocument, { refreshToken: login.login.refreshToken }))).code).toBe('UNAUTHENTICATED');
    expect((await failure(sdk.request(PortfolioDocument, {}, { token: refreshed.refreshToken.accessToken }))).code).toBe('UNAUTHENTICATED');
    investorToken = (await sdk.request(LoginDocument, { email: DEMO_EMAILS.investor, password: DEMO_PASSWORD })).login.accessToken;
    adminToken = (await sdk.request(LoginDocument, { email: DEMO_EMAILS.admin, password: DEMO_PASSWORD })).login.accessToken;
  });

  it('Portfolio: Decimal fields arrive as decimal strings, one holding per database row', async () => {
    const { portfolio } = await sdk.request(PortfolioDocument, {}, { token: investorToken });
    const holdings = await t.db.prisma.holding.findMany({ where: { investorId } });
    expect(portfolio.investorId).toBe(investorId);
    expect(portfolio.holdings.map((h) => h.unit.id).sort()).toEqual(holdings.map((h) => h.unitId).sort());
    const invested = holdings.reduce((sum, h) => sum.plus(h.investedAmount), holdings[0].investedAmount.minus(holdings[0].investedAmount));
    expect(portfolio.totalInvested).toMatch(DECIMAL);
    expect(Number(portfolio.totalInvested)).toBeCloseTo(invested.toNumber(), 2);
  });

  it('Distributions: the investor’s own, as many as the database holds', async () => {
    const { distributions } = await sdk.request(DistributionsDocument, { perPage: 5 }, { token: investorToken });
    expect(distributions.pageInfo.total).toBe(await t.db.prisma.distribution.count({ where: { investorId } }));
    for (const d of distributions.items) {
      expect(d.netAmount).toMatch(DECIMAL);
      expect(d.createdAt).toMatch(ISO_DATE);
    }
  });

  it('CreateWithdrawal (with an idempotency key), WithdrawalRequests, CancelWithdrawal', async () => {
    const holding = await t.db.prisma.holding.findFirstOrThrow({ where: { investorId }, orderBy: { ownershipPercentage: 'desc' } });
    const input = { unitId: holding.unitId, ownershipPercentage: '0.01', reason: 'SDK test' };
    const key = randomUUID();
    const created = await sdk.request(CreateWithdrawalDocument, { input }, { token: investorToken, idempotencyKey: key });
    const retried = await sdk.request(CreateWithdrawalDocument, { input }, { token: investorToken, idempotencyKey: key });
    expect(retried.createWithdrawalRequest.id).toBe(created.createWithdrawalRequest.id);
    expect(created.createWithdrawalRequest).toMatchObject({ status: 'PENDING', ownershipPercentage: '0.01', unitId: holding.unitId });
    expect(await t.db.prisma.withdrawalRequest.count({ where: { investorId, reason: 'SDK test' } })).toBe(1);

    const list = await sdk.request(WithdrawalRequestsDocument, { perPage: 1 }, { token: investorToken });
    expect(list.withdrawalRequests.items[0].id).toBe(created.createWithdrawalRequest.id);
    expect(list.withdrawalRequests.pageInfo.total).toBe(await t.db.prisma.withdrawalRequest.count({ where: { investorId } }));

    const cancelled = await sdk.request(CancelWithdrawalDocument, { id: created.createWithdrawalRequest.id }, { token: investorToken });
    expect(cancelled.cancelWithdrawalRequest.status).toBe('CANCELLED');
    const again = await failure(sdk.request(CancelWithdrawalDocument, { id: created.createWithdrawalRequest.id }, { token: investorToken }));
    expect(again.code).toBe('CONFLICT');
  });

  it('NotificationList, ReadNotification, ReadAllNotifications', async () => {
    const unread = () => t.db.prisma.notification.count({ where: { userId, readAt: null } });
    const first = await sdk.request(NotificationListDocument, { perPage: 3 }, { token: investorToken });
    expect(first.unreadNotificationCount).toBe(await unread());
    expect(first.notifications.pageInfo.total).toBe(await t.db.prisma.notification.count({ where: { userId } }));
    const one = first.notifications.items[0];
    const read = await sdk.request(ReadNotificationDocument, { id: one.id }, { token: investorToken });
    expect(read.markNotificationRead.readAt).toMatch(ISO_DATE);
    const left = await unread();
    expect((await sdk.request(ReadAllNotificationsDocument, {}, { token: investorToken })).markAllNotificationsRead).toBe(left);
    expect(await unread()).toBe(0);
  });

  it('back-office queues: pending investment and withdrawal requests, KYC documents to review', async () => {
    const investments = await sdk.request(PendingInvestmentRequestsDocument, { perPage: 5 }, { token: adminToken });
    expect(investments.investmentRequests.pageInfo.total).toBe(await t.db.prisma.investmentRequest.count({ where: { status: 'PENDING' } }));
    expect(investments.investmentRequests.items.every((r) => r.status === 'PENDING' && DECIMAL.test(r.amount))).toBe(true);
    const withdrawals = await sdk.request(PendingWithdrawalRequestsDocument, {}, { token: adminToken });
    expect(withdrawals.withdrawalRequests.pageInfo.total).toBe(await t.db.prisma.withdrawalRequest.count({ where: { status: 'PENDING' } }));
    const kyc = await sdk.request(PendingKycReviewsDocument, {}, { token: adminToken });
    expect(kyc.kycDocuments).toHaveLength(await t.db.prisma.kycDocument.count({ where: { status: 'PENDING' } }));
  });

  it('subscribe(): a typed notification over WebSocket, the document named as requests name it (by id with `persisted`)', async () => {
    type Frame = { type: string; payload?: { query: string; extensions?: { persistedQuery?: { sha256Hash: string } } } };
    const sent: Frame[] = [];
    // The `ws` package's WebSocket (Node 20 has no global one), recording what the SDK sends.
    class Recording extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols);
        const send = this.send.bind(this);
        this.send = ((data: string) => (sent.push(JSON.parse(data) as Frame), send(data))) as typeof this.send;
      }
    }
    const live = createClient({ url, persisted, webSocketImpl: Recording }).subscriptions({ accessToken: investorToken });
    const events: Array<NotificationAddedSubscription['notificationAdded']> = [];
    const before = t.services.changes.size();
    const stop = live.subscribe(NotificationAddedDocument, {}, { next: (data) => void events.push(data.notificationAdded) });
    try {
      await eventually(async () => t.services.changes.size() === before + 1);
      const title = `SDK subscription, TRUSTED_DOCUMENTS=${mode}`;
      await t.db.prisma.$transaction((tx) => notify(tx, { userId, type: 'SYSTEM', title, body: 'An event for subscribe().' }));
      await eventually(async () => events.length === 1);
      expect(events[0]).toMatchObject({ title, type: 'SYSTEM', readAt: null });
      expect(events[0].createdAt).toMatch(ISO_DATE);
    } finally {
      stop();
      await live.dispose();
    }
    const [id, text] = Object.entries(persistedDocuments).find(([, doc]) => doc.includes('subscription NotificationAdded '))!;
    const subscribes = sent
      .filter((f) => f.type === 'subscribe')
      .map((f) => ({ query: f.payload?.query, id: f.payload?.extensions?.persistedQuery?.sha256Hash }));
    const byId = { query: '', id: id.replace('sha256:', '') };
    // `off` trusts no manifest: the gateway answers PERSISTED_QUERY_NOT_FOUND and the SDK sends the text with the id (as APQ over HTTP).
    const expected = { allow: [{ query: text, id: undefined }], only: [byId], off: [byId, { ...byId, query: text }] }[mode];
    expect(subscribes).toEqual(expected);
  });

  it('errors carry the GraphQL code: no token → UNAUTHENTICATED, another investor’s request → NOT_FOUND', async () => {
    expect((await failure(sdk.request(PortfolioDocument, {}))).code).toBe('UNAUTHENTICATED');
    const theirs = await t.db.prisma.withdrawalRequest.findFirstOrThrow({ where: { investorId: { not: investorId }, status: 'PENDING' } });
    const notFound = await failure(sdk.request(CancelWithdrawalDocument, { id: theirs.id }, { token: investorToken }));
    expect(notFound.code).toBe('NOT_FOUND');
    expect(notFound.errors[0].message).toBe(notFound.message);
  });
});

describe('TRUSTED_DOCUMENTS=only', () => {
  let t: TestGateway;
  let url: string;
  let free: Client;
  let investor: string;
  let analyst: string;

  beforeAll(async () => {
    t = await startTestGateway({ TRUSTED_DOCUMENTS: 'only' });
    url = await listen(t);
    free = createClient({ url });
    investor = await t.token(DEMO_EMAILS.investor);
    analyst = await t.token(DEMO_EMAILS.analyst);
  });
  afterAll(() => t.close());

  const post = async (body: object, token?: string) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as { data?: Record<string, unknown>; errors?: Array<{ message: string; extensions: { code: string } }> },
    };
  };

  it('refuses a free query from an investor or a guest (400 PERSISTED_DOCUMENT_REQUIRED), even one from the manifest', async () => {
    for (const token of [investor, undefined]) {
      const error = await failure(free.request(PortfolioDocument, {}, { token }));
      expect(error).toMatchObject({ code: 'PERSISTED_DOCUMENT_REQUIRED', status: 400 });
    }
    const res = await post({ query: '{ me { email } }' }, investor);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].extensions.code).toBe('PERSISTED_DOCUMENT_REQUIRED');
  });

  it('refuses an id that is not in the manifest (400 PERSISTED_DOCUMENT_NOT_FOUND) and never learns one from a client', async () => {
    const query = '{ me { email } }';
    const { createHash } = await import('node:crypto');
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    for (const body of [
      { query, extensions: { persistedQuery: { version: 1, sha256Hash } } },
      { extensions: { persistedQuery: { version: 1, sha256Hash } } },
    ]) {
      const res = await post(body, investor);
      expect(res.status).toBe(400);
      expect(res.body.errors?.[0].extensions.code).toBe('PERSISTED_DOCUMENT_NOT_FOUND');
    }
    // A staff client sending id + text (the APQ registration) does not make it trusted for others.
    expect((await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } }, analyst)).status).toBe(200);
    expect((await post({ extensions: { persistedQuery: { version: 1, sha256Hash } } }, investor)).status).toBe(400);
  });

  it('runs a manifest id for an investor', async () => {
    const [id, text] = Object.entries(persistedDocuments).find(([, doc]) => doc.includes('query Portfolio '))!;
    const res = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: id.replace('sha256:', '') } } }, investor);
    expect(res.body).toEqual({ data: { portfolio: expect.objectContaining({ investorId: expect.any(Number) }) } });
    expect(res.status).toBe(200);
    expect(text).toContain('totalInvested');
  });

  it('lets an analyst send free queries (Apollo Sandbox, GraphiQL), introspection included', async () => {
    const kyc = await free.request(PendingKycReviewsDocument, {}, { token: analyst });
    expect(kyc.kycDocuments).toHaveLength(await t.db.prisma.kycDocument.count({ where: { status: 'PENDING' } }));
    const res = await post({ query: '{ me { role } __schema { queryType { name } } }' }, analyst);
    expect(res.body).toEqual({ data: { me: { role: 'ANALYST' }, __schema: { queryType: { name: 'Query' } } } });
  });

  it('holds subscribe messages over WebSocket to the same policy: an error message with the HTTP codes, the socket left open; a manifest id runs; staff subscribe freely', async () => {
    const ws = url.replace('http:', 'ws:');
    const [id, text] = Object.entries(persistedDocuments).find(([, doc]) => doc.includes('subscription NotificationAdded '))!;
    const hash = id.replace('sha256:', '');
    const byId = (sha256Hash: string, version = 1) => ({ persistedQuery: { version, sha256Hash } });
    const c = liveClient(ws, investor);
    const a = liveClient(ws, analyst);
    try {
      const refused = [
        // Free documents, even the manifest's own text: what HTTP answers with PERSISTED_DOCUMENT_REQUIRED.
        [c.subscribe(text), 'PERSISTED_DOCUMENT_REQUIRED'],
        [c.subscribe('subscription { notificationAdded { id } }'), 'PERSISTED_DOCUMENT_REQUIRED'],
        [c.subscribe('', undefined, byId('0'.repeat(64))), 'PERSISTED_DOCUMENT_NOT_FOUND'],
        [c.subscribe('subscription { notificationAdded { id } }', undefined, byId(hash)), 'PERSISTED_QUERY_HASH_MISMATCH'],
        [c.subscribe('', undefined, byId(hash, 2)), 'BAD_REQUEST'],
      ] as const;
      await eventually(async () => refused.every(([sub]) => sub.error !== undefined));
      expect(refused.map(([sub]) => sub.error?.[0].extensions?.code)).toEqual(refused.map(([, code]) => code));
      // The same message as POST /graphql's answer.
      const http = await post({ query: text }, investor);
      expect(refused[0][0].error?.[0].message).toBe(http.body.errors?.[0].message);
      expect(c.acknowledged && c.closed === undefined).toBe(true);

      // On the same socket: the manifest's id, as the SDK sends it (empty query), and an analyst's free document.
      const before = t.services.changes.size();
      const mine = c.subscribe<{ notificationAdded: { title: string } }>('', undefined, byId(hash));
      const staff = a.subscribe('subscription { withdrawalRequestUpdated { id status } }');
      await eventually(async () => t.services.changes.size() === before + 2);
      const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor } });
      const title = 'A manifest subscription under TRUSTED_DOCUMENTS=only';
      await t.db.prisma.$transaction((tx) => notify(tx, { userId: user.id, type: 'SYSTEM', title, body: 'By id.' }));
      await eventually(async () => mine.results.length === 1);
      expect(mine.results[0].data?.notificationAdded.title).toBe(title);
      expect([mine.error, staff.error]).toEqual([undefined, undefined]);
    } finally {
      await Promise.all([c.dispose(), a.dispose()]);
    }
  });

  it('leaves the REST face alone: its routes run their own documents in-process', async () => {
    const res = await t.http.get('/api/v1/portfolio/performance').set('authorization', `Bearer ${investor}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });
});

describe('subscribe(): token refresh on 4401', () => {
  // Access tokens live 4 s: the gateway closes each socket with 4401 at its token's expiry.
  let t: TestGateway;
  let sdk: Client;
  let investorId: number;

  beforeAll(async () => {
    t = await startTestGateway({ ACCESS_TOKEN_TTL: '4' });
    sdk = createClient({ url: await listen(t), webSocketImpl: WebSocket });
    investorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
  });
  afterAll(() => t.close());

  const login = async () => (await sdk.request(LoginDocument, { email: DEMO_EMAILS.investor, password: DEMO_PASSWORD })).login;

  it('refreshes the expired access token once, reconnects with the new one and receives a later event', async () => {
    const session = await login();
    const refreshed: SessionFieldsFragment[] = [];
    const errors: Error[] = [];
    const events: Array<InvestmentRequestUpdatedSubscription['investmentRequestUpdated']> = [];
    const live = sdk.subscriptions({ ...session, onRefresh: (s) => void refreshed.push(s) });
    const stop = live.subscribe(
      InvestmentRequestUpdatedDocument,
      {},
      { next: (data) => void events.push(data.investmentRequestUpdated), error: (e) => void errors.push(e) },
    );
    try {
      await eventually(async () => t.services.changes.size() === 1);
      // The expiry closes the socket (4401); the SDK refreshes and subscribes again on a new socket.
      await eventually(async () => refreshed.length === 1 && t.services.changes.size() === 1, budget(15_000));
      expect(refreshed[0].accessToken).not.toBe(session.accessToken);
      expect(refreshed[0].refreshToken).not.toBe(session.refreshToken);
      const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' } });
      const request = await t.db.prisma.investmentRequest.create({ data: { investorId, unitId: unit.id, amount: '1000.00', ownershipPercentage: '0.100000' } });
      const admin = await t.token(DEMO_EMAILS.admin);
      expect((await t.gql('mutation($id: Int!) { approveInvestmentRequest(id: $id) { id } }', { id: request.id }, admin)).errors).toBeUndefined();
      await eventually(async () => events.some((e) => e.id === request.id));
      const event = events.find((e) => e.id === request.id)!;
      const amount: string = event.amount;
      expect({ ...event, amount }).toMatchObject({ investorId, status: 'APPROVED', amount: '1000.00', unit: { id: unit.id, code: unit.code } });
      expect(errors).toEqual([]);
    } finally {
      stop();
      await live.dispose();
    }
  });

  it('ends the subscription with UNAUTHENTICATED when the session is revoked and the refresh fails', async () => {
    const session = await login();
    const refreshed: SessionFieldsFragment[] = [];
    const errors: Error[] = [];
    const live = sdk.subscriptions({ ...session, onRefresh: (s) => void refreshed.push(s) });
    live.subscribe(InvestmentRequestUpdatedDocument, {}, { next: () => undefined, error: (e) => void errors.push(e) });
    try {
      await eventually(async () => t.services.changes.size() === 1);
      expect((await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${session.accessToken}`)).status).toBe(200);
      await eventually(async () => errors.length === 1);
      expect(errors[0]).toBeInstanceOf(GraphQLRequestError);
      expect((errors[0] as GraphQLRequestError).code).toBe('UNAUTHENTICATED');
      expect(refreshed).toEqual([]);
      await eventually(async () => t.services.changes.size() === 0);
    } finally {
      await live.dispose();
    }
  });
});

describe('the packed SDK: npm pack, installed on its own, imported from plain Node', () => {
  const clientDir = join(__dirname, '..', 'client');
  const run = promisify(execFile);
  let t: TestGateway;
  let url: string;
  let consumer: string;
  let tarball: string;

  beforeAll(async () => {
    t = await startTestGateway({ TRUSTED_DOCUMENTS: 'only' });
    url = await listen(t);
    consumer = await mkdtemp(join(tmpdir(), 'sdk-consumer-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(consumer, { recursive: true, force: true });
  });

  /** Every file under a folder, relative to `base`. */
  const filesUnder = async (dir: string, base: string) =>
    (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => relative(base, join(e.parentPath, e.name)));

  it('packs the build (prepack) and the operations, nothing else: a .js and a .d.ts per source module', async () => {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', consumer], { cwd: clientDir });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(consumer, packed.filename);
    const modules = (await filesUnder(join(clientDir, 'src'), join(clientDir, 'src'))).filter((f) => f.endsWith('.ts'));
    const expected = [
      'package.json',
      'README.md',
      ...(await filesUnder(join(clientDir, 'operations'), clientDir)),
      ...modules.flatMap((m) => [join('dist', m.replace(/\.ts$/, '.js')), join('dist', m.replace(/\.ts$/, '.d.ts'))]),
    ];
    expect(packed.files.map((f) => f.path).sort()).toEqual(expected.sort());
  });

  it('installs from the tarball alone and runs Login then Portfolio by persisted id from plain Node (ESM, types for NodeNext)', async () => {
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: consumer });
    await writeFile(
      join(consumer, 'consumer.mts'),
      [
        `import { createClient, LoginDocument, PortfolioDocument } from '@investment-platform/client';`,
        `declare const process: { env: Record<string, string | undefined> };`,
        `const api = createClient({ url: process.env.GATEWAY_URL!, persisted: true });`,
        `const { login } = await api.request(LoginDocument, { email: process.env.EMAIL!, password: process.env.PASSWORD! });`,
        `const { portfolio } = await api.request(PortfolioDocument, {}, { token: login.accessToken });`,
        `const total: string = portfolio.totalInvested;`,
        `console.log(JSON.stringify({ resolved: import.meta.resolve('@investment-platform/client'), role: login.user.role, investorId: portfolio.investorId, total }));`,
      ].join('\n'),
    );
    // A consumer on TypeScript's NodeNext resolution type-checks against the packed .d.ts, then plain node runs the emitted .mjs.
    const tsc = join(__dirname, '..', 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '--module', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--strict', 'consumer.mts'], {
      cwd: consumer,
    });
    const { stdout } = await run(process.execPath, ['consumer.mjs'], {
      cwd: consumer,
      env: { PATH: process.env.PATH, GATEWAY_URL: url, EMAIL: DEMO_EMAILS.investor, PASSWORD: DEMO_PASSWORD },
    });
    const out = JSON.parse(stdout) as { resolved: string; role: string; investorId: number; total: string };
    const investor = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor }, include: { investor: true } });
    expect(out).toEqual({
      resolved: expect.stringContaining(join(consumer, 'node_modules', '@investment-platform', 'client')),
      role: 'INVESTOR',
      investorId: investor.investor!.id,
      total: expect.stringMatching(DECIMAL),
    });
  });

  it('subscribes from plain Node with the ws package (Node 20 has no global WebSocket) and receives a typed event', async () => {
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', 'ws@8', '@types/ws@8'], { cwd: consumer });
    await writeFile(
      join(consumer, 'live.mts'),
      [
        `import { createClient, LoginDocument, NotificationAddedDocument } from '@investment-platform/client';`,
        `import WebSocket from 'ws';`,
        `declare const process: { env: Record<string, string | undefined> };`,
        `const api = createClient({ url: process.env.GATEWAY_URL!, persisted: true, webSocketImpl: WebSocket });`,
        `const { login } = await api.request(LoginDocument, { email: process.env.EMAIL!, password: process.env.PASSWORD! });`,
        `const live = api.subscriptions({ accessToken: login.accessToken, refreshToken: login.refreshToken });`,
        `for await (const { notificationAdded } of live.iterate(NotificationAddedDocument, {})) {`,
        `  const type: string = notificationAdded.type;`,
        `  console.log(JSON.stringify({ type, data: notificationAdded.data }));`,
        `  break;`,
        `}`,
        `await live.dispose();`,
      ].join('\n'),
    );
    const tsc = join(__dirname, '..', 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '--module', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--strict', 'live.mts'], { cwd: consumer });
    // Killed if it hangs: it exits after its first event.
    const listening = run(process.execPath, ['live.mjs'], {
      cwd: consumer,
      timeout: budget(60_000),
      env: { PATH: process.env.PATH, GATEWAY_URL: url, EMAIL: DEMO_EMAILS.investor, PASSWORD: DEMO_PASSWORD },
    });
    const investor = await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } });
    const unit = await t.db.prisma.unit.findFirstOrThrow({ where: { status: 'AVAILABLE' } });
    const request = await t.db.prisma.investmentRequest.create({
      data: { investorId: investor.id, unitId: unit.id, amount: '1000.00', ownershipPercentage: '0.100000' },
    });
    await eventually(async () => t.services.changes.size() === 1, budget(30_000));
    const admin = await t.token(DEMO_EMAILS.admin);
    expect((await t.gql('mutation($id: Int!) { approveInvestmentRequest(id: $id) { id } }', { id: request.id }, admin)).errors).toBeUndefined();
    const { stdout } = await listening;
    expect(JSON.parse(stdout)).toEqual({ type: 'INVESTMENT_REQUEST_REVIEWED', data: expect.objectContaining({ investmentRequestId: request.id }) });
  });
});

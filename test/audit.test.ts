import type { AuditEvent } from '../src/generated/prisma/client';
import type { MailMessage } from '../src/services/mailer';
import { runVerify } from '../scripts/audit-verify';
import { AUDIT_TEXT_MAX_CHARS, audit, withAuditOrigin } from '../src/services/audit.service';
import { MATRIX } from './support/field-roles';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

/**
 * The audit trail (docs/audit.md): events written with their action, never without it, with the
 * right actor, target and changes; the hash chain and its verification; the admin listing and export.
 */
let t: TestGateway;
let adminToken: string;
let adminId: number;
let analystToken: string;

/** Every secret the tests send: none may ever appear in a stored event. */
const secrets = new Set<string>([DEMO_PASSWORD]);

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from('audit-test-file-contents-that-must-never-be-stored '.repeat(4))]);
secrets.add(PDF.toString('base64'));

beforeAll(async () => {
  t = await startTestGateway();
  adminToken = await t.token(DEMO_EMAILS.admin);
  analystToken = await t.token(DEMO_EMAILS.analyst);
  adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.admin } })).id;
});
afterAll(() => t.close());

/** A mutation's answer: the object it returns, with its id. */
type Row = { id: number } & Record<string, unknown>;

async function gql<T = Record<string, Row>>(query: string, token?: string, variables?: Record<string, unknown>) {
  const res = await t.gql<T>(query, variables, token);
  return res;
}

/** uploadKycDocument as a GraphQL multipart request (the file as an Upload). */
async function gqlUpload(token: string) {
  const res = await t.http
    .post('/graphql')
    .set({ authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' })
    .field(
      'operations',
      JSON.stringify({ query: 'mutation($f: Upload!) { uploadKycDocument(input: { documentType: PASSPORT, file: $f }) { id } }', variables: { f: null } }),
    )
    .field('map', JSON.stringify({ 0: ['variables.f'] }))
    .attach('0', PDF, 'p.pdf');
  return res.body as Awaited<ReturnType<typeof gql<Record<string, Row>>>>;
}

/** Runs `action` and answers the events it wrote, in order. */
async function eventsOf(action: () => Promise<unknown>): Promise<AuditEvent[]> {
  const last = (await t.db.prisma.auditEvent.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? 0n;
  await action();
  return t.db.prisma.auditEvent.findMany({ where: { id: { gt: last } }, orderBy: { id: 'asc' } });
}

let accounts = 0;
async function newAccount() {
  const email = `audit-${process.pid}-${++accounts}@example.com`;
  const name = `Audit Person ${accounts} ${process.pid}`;
  const password = `Pw-${accounts}-secret-${process.pid}`;
  secrets.add(password);
  const res = await t.http.post('/api/v1/auth/register').send({ name, email, password, password_confirmation: password });
  expect(res.status).toBe(201);
  secrets.add(res.body.data.access_token).add(res.body.data.refresh_token);
  return {
    id: res.body.data.user.id as number,
    email,
    name,
    password,
    token: res.body.data.access_token as string,
    refresh: res.body.data.refresh_token as string,
  };
}

/**
 * `n` investors, each with a holding that has more than 0.01 % free to withdraw, whose identity is
 * verified (an approved KYC document is added where the demo data has none).
 */
async function verifiedHolders(n: number) {
  const prisma = t.db.prisma;
  const holdings = await prisma.holding.findMany({
    where: { ownershipPercentage: { gt: 0.02 }, investor: { user: { deletedAt: null } } },
    select: { unitId: true, investorId: true, ownershipPercentage: true, investor: { select: { user: { select: { email: true, id: true } } } } },
    orderBy: { id: 'asc' },
  });
  const pending = await prisma.withdrawalRequest.groupBy({ by: ['investorId', 'unitId'], where: { status: 'PENDING' }, _sum: { ownershipPercentage: true } });
  const pendingOf = (h: { investorId: number; unitId: number }) =>
    pending.find((p) => p.investorId === h.investorId && p.unitId === h.unitId)?._sum.ownershipPercentage ?? 0;
  const chosen = new Map<number, (typeof holdings)[number]>();
  for (const h of holdings) if (!chosen.has(h.investorId) && h.ownershipPercentage.minus(pendingOf(h)).greaterThan(0.01)) chosen.set(h.investorId, h);
  const list = [...chosen.values()].slice(0, n);
  expect(list).toHaveLength(n);
  for (const h of list) {
    if (!(await prisma.kycDocument.findFirst({ where: { investorId: h.investorId, status: 'APPROVED' } }))) {
      await prisma.kycDocument.create({
        data: {
          investorId: h.investorId,
          documentType: 'PASSPORT',
          storageKey: `kyc/audit-${h.investorId}`,
          mimeType: 'application/pdf',
          sizeBytes: 1,
          checksum: '0'.repeat(64),
          status: 'APPROVED',
          reviewedAt: new Date(),
        },
      });
    }
  }
  return Promise.all(list.map(async (h) => ({ ...h, userId: h.investor.user.id, token: await t.token(h.investor.user.email) })));
}

/** Up to `units` AVAILABLE units, each with room for `count` minimum investments, and that minimum. */
async function roomyUnits(count: number, units = 1) {
  const config = await t.db.prisma.appConfig.findUniqueOrThrow({ where: { id: 1 } });
  const candidates = await t.db.prisma.unit.findMany({ where: { status: 'AVAILABLE' }, orderBy: { availablePercentage: 'desc' } });
  const found: { unitId: number; amount: string }[] = [];
  for (const unit of candidates) {
    const amount = unit.minInvestment.greaterThan(config.minInvestment) ? unit.minInvestment : config.minInvestment;
    const pending = await t.db.prisma.investmentRequest.aggregate({ where: { unitId: unit.id, status: 'PENDING' }, _sum: { ownershipPercentage: true } });
    const free = unit.availablePercentage.minus(pending._sum.ownershipPercentage ?? 0);
    if (
      amount
        .dividedBy(unit.totalValue)
        .times(100)
        .times(count + 1)
        .lessThan(free)
    )
      found.push({ unitId: unit.id, amount: amount.toFixed(2) });
    if (found.length === units) return found;
  }
  if (found.length === 0) throw new Error('no unit with room for the test investments');
  return found;
}
const roomyUnit = async (count: number) => (await roomyUnits(count))[0];

/**
 * Seals until every event is on the chain. Sealing waits for the oldest running writer of the whole
 * PostgreSQL cluster (docs/audit.md), which may belong to another test file, hence polling (bounded).
 */
async function sealAll(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await t.services.audit.seal();
    const [events, seals] = await Promise.all([t.db.prisma.auditEvent.count(), t.db.prisma.auditSeal.count()]);
    if (events === seals) return;
    if (Date.now() > deadline) throw new Error(`${events - seals} audit events still unsealed after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const actorOf = (e: AuditEvent) => ({ id: e.actorId, role: e.actorRole });

describe('event time', () => {
  it('comes from the database’s clock, not the gateway’s', async () => {
    // The transaction starts, then 50 ms pass on the server before the event is written: an event
    // stamped by the database carries the transaction's time (now()), one stamped by the gateway a
    // later one.
    const [{ now, occurred }] = await t.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_sleep(0.05)`;
      await audit.record(tx, { action: 'test.clock', actor: null });
      return tx.$queryRaw<{ now: Date; occurred: Date }[]>`
        SELECT now()::timestamptz(3) AS now, (SELECT occurred_at FROM audit_events WHERE action = 'test.clock' ORDER BY id DESC LIMIT 1) AS occurred`;
    });
    expect(occurred.toISOString()).toBe(now.toISOString());
  });
});

describe('security events', () => {
  it('records a failed login with the email as typed (never the password) and a successful one, with request id, IP and user agent', async () => {
    const investor = await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.investor } });
    const failed = await eventsOf(async () => {
      const res = await t.http
        .post('/api/v1/auth/login')
        .set('x-request-id', 'req-audit-1')
        .set('user-agent', 'audit-test/1.0')
        .send({ email: 'Investor@Demo.TEST', password: 'wrong-password-42' });
      expect(res.status).toBe(422);
    });
    secrets.add('wrong-password-42');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      action: 'auth.login_failed',
      actorId: null,
      targetType: 'user',
      targetId: String(investor.id),
      changes: { after: { email: 'Investor@Demo.TEST' } },
      requestId: 'req-audit-1',
      userAgent: 'audit-test/1.0',
    });
    expect(failed[0].ip).toMatch(/127\.0\.0\.1/);

    const ok = await eventsOf(async () => {
      const res = await t.http
        .post('/api/v1/auth/login')
        .set('x-request-id', 'bad id with spaces')
        .send({ email: DEMO_EMAILS.investor, password: DEMO_PASSWORD });
      expect(res.status).toBe(200);
      secrets.add(res.body.data.access_token).add(res.body.data.refresh_token);
    });
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ action: 'auth.login_succeeded', actorId: investor.id, actorRole: 'INVESTOR', targetId: String(investor.id) });
    // A malformed X-Request-Id is not taken: the event carries the id the gateway generated instead.
    expect(ok[0].requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('stores the User-Agent the client sent: its UTF-8 read as UTF-8, cut to its first 512 characters (never inside one)', async () => {
    const email = `agent-${process.pid}@example.test`;
    /** A failed login whose User-Agent header carries exactly `bytes`; answers what the trail stored. */
    async function storedAgent(bytes: Buffer): Promise<string | null> {
      const events = await eventsOf(async () => {
        // Node writes header characters as single bytes (latin-1), so the header carries `bytes`
        // exactly — provided the body is a Buffer: a string body goes out with the headers, all UTF-8.
        const res = await t.http
          .post('/api/v1/auth/login')
          .set('user-agent', bytes.toString('latin1'))
          .serialize((body) => Buffer.from(JSON.stringify(body)) as unknown as string)
          .send({ email, password: 'wrong password' });
        expect(res.status).toBe(422);
      });
      expect(events.map((e) => e.action)).toEqual(['auth.login_failed']);
      return events[0].userAgent;
    }
    const utf8 = 'Navigateur/2.1 (Café; 日本語; 🙂)';
    expect(await storedAgent(Buffer.from(utf8))).toBe(utf8);
    // Bytes that are not UTF-8 become U+FFFD, not other characters.
    expect(await storedAgent(Buffer.from([0x61, 0xe9, 0x62, 0xff]))).toBe('a\ufffdb\ufffd');
    // Any guest can send one per failed login: 8 kB of it must not be 8 kB a row.
    expect(await storedAgent(Buffer.from('A'.repeat(8000)))).toBe('A'.repeat(AUDIT_TEXT_MAX_CHARS));
    const astral = 'x'.repeat(AUDIT_TEXT_MAX_CHARS - 1) + '🙂'.repeat(20);
    expect(await storedAgent(Buffer.from(astral))).toBe('x'.repeat(AUDIT_TEXT_MAX_CHARS - 1) + '🙂');
    const listed = await gql<{ auditEvents: { items: { userAgent: string }[] } }>(
      `query { auditEvents(filter: { action: "auth.login_failed" }, perPage: 1) { items { userAgent } } }`,
      adminToken,
    );
    expect(listed.data?.auditEvents.items).toEqual([{ userAgent: 'x'.repeat(AUDIT_TEXT_MAX_CHARS - 1) + '🙂' }]);
  });

  it('stores what PostgreSQL text cannot hold and an outsized IP (TRUST_PROXY=true takes X-Forwarded-For as written) without failing the action', async () => {
    const origin = { actor: null, requestId: 'req-nul', ip: '1'.repeat(2000), userAgent: 'a\u0000b' };
    const events = await eventsOf(() => withAuditOrigin(origin, () => t.db.prisma.$transaction((tx) => audit.record(tx, { action: 'test.origin_text' }))));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'test.origin_text', requestId: 'req-nul', ip: '1'.repeat(AUDIT_TEXT_MAX_CHARS), userAgent: 'a\ufffdb' });
  });

  it('records logout and refresh-token reuse (the family revoked)', async () => {
    const account = await newAccount();
    const rotated = await t.http.post('/api/v1/auth/refresh').send({ refresh_token: account.refresh });
    expect(rotated.status).toBe(200);
    secrets.add(rotated.body.data.access_token).add(rotated.body.data.refresh_token);
    const reuse = await eventsOf(async () => expect((await t.http.post('/api/v1/auth/refresh').send({ refresh_token: account.refresh })).status).toBe(401));
    expect(reuse.map((e) => [e.action, e.actorId, e.targetType, e.targetId])).toEqual([['auth.refresh_token_reused', null, 'user', String(account.id)]]);

    const again = await newAccount();
    const logout = await eventsOf(async () =>
      expect((await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${again.token}`)).status).toBe(200),
    );
    expect(logout).toHaveLength(1);
    expect(logout[0]).toMatchObject({ action: 'auth.logged_out', actorId: again.id, actorRole: 'INVESTOR', targetType: 'session' });
  });

  it('records password change, reset request and completion; a wrong current password writes nothing', async () => {
    const account = await newAccount();
    const auth = { authorization: `Bearer ${account.token}` };
    const wrong = await eventsOf(async () => {
      const res = await t.http
        .put('/api/v1/auth/password')
        .set(auth)
        .send({ current_password: 'not-it-at-all', password: 'Another-Pw-1', password_confirmation: 'Another-Pw-1' });
      expect(res.status).toBe(422);
    });
    expect(wrong).toEqual([]);
    secrets.add('Another-Pw-1').add('New-Pw-Changed-1').add('Reset-Pw-Final-1');
    const changed = await eventsOf(async () => {
      const res = await t.http
        .put('/api/v1/auth/password')
        .set(auth)
        .send({ current_password: account.password, password: 'New-Pw-Changed-1', password_confirmation: 'New-Pw-Changed-1' });
      expect(res.status).toBe(200);
    });
    expect(changed.map((e) => [e.action, e.actorId, e.targetId])).toEqual([['user.password_changed', account.id, String(account.id)]]);

    const spy = jest.spyOn(t.services.mailer, 'send');
    const requested = await eventsOf(async () => expect((await t.http.post('/api/v1/auth/password/forgot').send({ email: account.email })).status).toBe(200));
    const token = /Token: (\S+)/.exec((spy.mock.calls[0][0] as MailMessage).text)![1];
    spy.mockRestore();
    secrets.add(token);
    expect(requested.map((e) => [e.action, e.actorId, e.targetId])).toEqual([['user.password_reset_requested', null, String(account.id)]]);
    const unknown = await eventsOf(async () =>
      expect((await t.http.post('/api/v1/auth/password/forgot').send({ email: 'nobody-here@example.com' })).status).toBe(200),
    );
    expect(unknown).toEqual([]);

    const completed = await eventsOf(async () => {
      const res = await t.http
        .post('/api/v1/auth/password/reset')
        .send({ email: account.email, token, password: 'Reset-Pw-Final-1', password_confirmation: 'Reset-Pw-Final-1' });
      expect(res.status).toBe(200);
    });
    expect(completed.map((e) => [e.action, e.actorId, e.targetId])).toEqual([['user.password_reset_completed', null, String(account.id)]]);
  });

  it('records account deletion; the events stay with the actor id, and none carries the name', async () => {
    const account = await newAccount();
    await gql('mutation { updateSettings(input: { language: "en" }) { __typename } }', account.token);
    const before = await t.db.prisma.auditEvent.count({ where: { OR: [{ actorId: account.id }, { targetType: 'user', targetId: String(account.id) }] } });
    const deleted = await eventsOf(async () => {
      const res = await t.http.delete('/api/v1/auth/me').set('authorization', `Bearer ${account.token}`).send({ password: account.password });
      expect(res.status).toBe(200);
    });
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ action: 'user.deleted', actorId: account.id, targetType: 'user', targetId: String(account.id) });
    const kept = await t.db.prisma.auditEvent.findMany({ where: { OR: [{ actorId: account.id }, { targetType: 'user', targetId: String(account.id) }] } });
    expect(kept.length).toBe(before + 1);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } })).name).not.toBe(account.name);
    expect(JSON.stringify(kept.map((e) => ({ ...e, id: String(e.id), xid: String(e.xid) })))).not.toContain(account.name);
  });
});

describe('investor money and identity events', () => {
  it('records investment and withdrawal requests created and cancelled, with the created values; refused ones write nothing', async () => {
    const [holder] = await verifiedHolders(1);
    const actor = { id: holder.userId, role: 'INVESTOR' };
    const { unitId, amount } = await roomyUnit(2);
    let id = 0;
    const created = await eventsOf(async () => {
      const res = await gql(`mutation { createInvestmentRequest(input: { unitId: ${unitId}, amount: "${amount}" }) { id ownershipPercentage } }`, holder.token);
      expect(res.errors).toBeUndefined();
      id = res.data!.createInvestmentRequest.id;
    });
    expect(created).toHaveLength(1);
    expect(actorOf(created[0])).toEqual(actor);
    expect(created[0]).toMatchObject({ action: 'investment_request.created', targetType: 'investment_request', targetId: String(id) });
    expect(created[0].changes).toMatchObject({ after: { investorId: holder.investorId, unitId, status: 'PENDING' } });
    expect(Number((created[0].changes as { after: { amount: string } }).after.amount)).toBe(Number(amount));
    const cancelled = await eventsOf(async () =>
      expect((await gql(`mutation { cancelInvestmentRequest(id: ${id}) { id } }`, holder.token)).errors).toBeUndefined(),
    );
    expect(cancelled.map((e) => [e.action, e.targetId, e.changes])).toEqual([
      ['investment_request.cancelled', String(id), { before: { status: 'PENDING' }, after: { status: 'CANCELLED' } }],
    ]);

    const withdrawal = await eventsOf(async () => {
      const res = await t.http
        .post('/api/v1/withdrawals/requests')
        .set('authorization', `Bearer ${holder.token}`)
        .send({ unit_id: holder.unitId, ownership_percentage: 0.0001, reason: 'audit' });
      expect(res.status).toBe(201);
      id = res.body.data.id;
    });
    expect(withdrawal).toHaveLength(1);
    expect(withdrawal[0]).toMatchObject({
      action: 'withdrawal_request.created',
      targetType: 'withdrawal_request',
      targetId: String(id),
      actorId: holder.userId,
    });
    expect(withdrawal[0].changes).toMatchObject({ after: { unitId: holder.unitId, ownershipPercentage: '0.0001', reason: 'audit', status: 'PENDING' } });
    const cancelW = await eventsOf(async () =>
      expect((await gql(`mutation { cancelWithdrawalRequest(id: ${id}) { id } }`, holder.token)).errors).toBeUndefined(),
    );
    expect(cancelW.map((e) => e.action)).toEqual(['withdrawal_request.cancelled']);

    const refused = await eventsOf(async () => {
      expect(
        (
          await t.http
            .post('/api/v1/withdrawals/requests')
            .set('authorization', `Bearer ${holder.token}`)
            .send({ unit_id: holder.unitId, ownership_percentage: 100, reason: 'too much' })
        ).status,
      ).toBe(409);
      expect(
        (await t.http.post('/api/v1/investment-requests').set('authorization', `Bearer ${holder.token}`).send({ unit_id: unitId, amount: 0.001 })).status,
      ).toBe(422);
      expect((await gql(`mutation { cancelWithdrawalRequest(id: ${id}) { id } }`, holder.token)).errors?.[0].extensions?.code).toBe('CONFLICT');
      expect((await gql('mutation { approveWithdrawalRequest(id: 99999999) { id } }', adminToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    });
    expect(refused).toEqual([]);
  });

  it('records a KYC upload without the file contents', async () => {
    const [holder] = await verifiedHolders(1);
    const uploaded = await eventsOf(async () => {
      const res = await gqlUpload(holder.token);
      expect(res.errors).toBeUndefined();
    });
    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]).toMatchObject({ action: 'kyc_document.uploaded', targetType: 'kyc_document', actorId: holder.userId });
    expect(uploaded[0].changes).toEqual({
      after: { investorId: holder.investorId, documentType: 'PASSPORT', mimeType: 'application/pdf', sizeBytes: PDF.length, status: 'PENDING' },
    });
  });
});

describe('back office', () => {
  type Step = { mutation: string; action: string; targetType: string; call: () => Promise<{ query: string; targetId: string | number }> };
  const first = (res: { data?: Record<string, Row> | null; errors?: unknown }): Row => {
    expect(res.errors).toBeUndefined();
    return Object.values(res.data!)[0];
  };
  let holder: Awaited<ReturnType<typeof verifiedHolders>>[number];
  const ids: Record<string, number> = {};
  const invest = async () => {
    const { unitId, amount } = await roomyUnit(1);
    return first(await gql(`mutation { createInvestmentRequest(input: { unitId: ${unitId}, amount: "${amount}" }) { id } }`, holder.token)).id as number;
  };
  const withdraw = async () =>
    first(
      await gql(
        `mutation { createWithdrawalRequest(input: { unitId: ${holder.unitId}, ownershipPercentage: "0.0001", reason: "audit" }) { id } }`,
        holder.token,
      ),
    ).id as number;
  const upload = async () => first(await gqlUpload(holder.token)).id as number;
  const declare = async (period: string) =>
    first(
      await gql(
        `mutation { declareDistribution(input: { unitId: ${holder.unitId}, period: "${period}", type: DIVIDEND, grossAmount: "1000", feeRate: "0.01" }) { id } }`,
        adminToken,
      ),
    ).id as number;
  const pendingPayout = async () =>
    (await t.db.prisma.payout.findFirstOrThrow({ where: { status: 'PENDING', distribution: { declarationId: ids.declaration } }, orderBy: { id: 'asc' } })).id;
  const steps: Step[] = [
    {
      mutation: 'createCategory',
      action: 'category.created',
      targetType: 'category',
      call: async () => ({
        query:
          'mutation { createCategory(input: { name: "Audit Category", slug: "audit-category", description: "For the audit test", icon: "home", color: "#112233" }) { id } }',
        targetId: 'new',
      }),
    },
    {
      mutation: 'updateCategory',
      action: 'category.updated',
      targetType: 'category',
      call: async () => ({ query: `mutation { updateCategory(id: ${ids.category}, input: { description: "Changed" }) { id } }`, targetId: ids.category }),
    },
    {
      mutation: 'createUnit',
      action: 'unit.created',
      targetType: 'unit',
      call: async () => ({
        query: `mutation { createUnit(input: { code: "AUDIT-1", name: "Audit Unit", description: "d", location: "Lisbon", categoryId: ${ids.category}, totalValue: "1000000", minInvestment: "100", expectedReturn: "5" }) { id } }`,
        targetId: 'new',
      }),
    },
    {
      mutation: 'updateUnit',
      action: 'unit.updated',
      targetType: 'unit',
      call: async () => ({ query: `mutation { updateUnit(id: ${ids.unit}, input: { status: AVAILABLE }) { id } }`, targetId: ids.unit }),
    },
    {
      mutation: 'recordUnitValuation',
      action: 'unit.valuation_recorded',
      targetType: 'unit',
      call: async () => ({
        query: `mutation { recordUnitValuation(unitId: ${ids.unit}, value: "1100000", valuedAt: "${new Date(Date.now() - 60_000).toISOString()}") { id } }`,
        targetId: ids.unit,
      }),
    },
    {
      mutation: 'upsertLegalText',
      action: 'legal_text.published',
      targetType: 'legal_text',
      call: async () => ({
        query: 'mutation { upsertLegalText(input: { kind: PRIVACY_POLICY, title: "Privacy", content: "New privacy text" }) { version } }',
        targetId: 'PRIVACY_POLICY',
      }),
    },
    {
      mutation: 'updateAppConfig',
      action: 'app_config.updated',
      targetType: 'app_config',
      call: async () => ({ query: 'mutation { updateAppConfig(input: { supportEmail: "audit-support@example.com" }) { supportEmail } }', targetId: 1 }),
    },
    {
      mutation: 'approveInvestmentRequest',
      action: 'investment_request.approved',
      targetType: 'investment_request',
      call: async () => {
        const id = await invest();
        return { query: `mutation { approveInvestmentRequest(id: ${id}) { id } }`, targetId: id };
      },
    },
    {
      mutation: 'rejectInvestmentRequest',
      action: 'investment_request.rejected',
      targetType: 'investment_request',
      call: async () => {
        const id = await invest();
        return { query: `mutation { rejectInvestmentRequest(id: ${id}, reason: "No") { id } }`, targetId: id };
      },
    },
    {
      mutation: 'approveWithdrawalRequest',
      action: 'withdrawal_request.approved',
      targetType: 'withdrawal_request',
      call: async () => {
        ids.withdrawal = await withdraw();
        return { query: `mutation { approveWithdrawalRequest(id: ${ids.withdrawal}) { id } }`, targetId: ids.withdrawal };
      },
    },
    {
      mutation: 'completeWithdrawalRequest',
      action: 'withdrawal_request.completed',
      targetType: 'withdrawal_request',
      call: async () => ({ query: `mutation { completeWithdrawalRequest(id: ${ids.withdrawal}) { id } }`, targetId: ids.withdrawal }),
    },
    {
      mutation: 'rejectWithdrawalRequest',
      action: 'withdrawal_request.rejected',
      targetType: 'withdrawal_request',
      call: async () => {
        const id = await withdraw();
        return { query: `mutation { rejectWithdrawalRequest(id: ${id}, reason: "No") { id } }`, targetId: id };
      },
    },
    {
      mutation: 'declareDistribution',
      action: 'distribution_declaration.declared',
      targetType: 'distribution_declaration',
      call: async () => ({
        query: `mutation { declareDistribution(input: { unitId: ${holder.unitId}, period: "2039-Q1", type: DIVIDEND, grossAmount: "1000", feeRate: "0.01" }) { id } }`,
        targetId: 'new',
      }),
    },
    {
      mutation: 'approveDistribution',
      action: 'distribution_declaration.approved',
      targetType: 'distribution_declaration',
      call: async () => ({ query: `mutation { approveDistribution(id: ${ids.declaration}) { id } }`, targetId: ids.declaration }),
    },
    {
      mutation: 'distributeDistribution',
      action: 'distribution_declaration.distributed',
      targetType: 'distribution_declaration',
      call: async () => ({ query: `mutation { distributeDistribution(id: ${ids.declaration}) { id } }`, targetId: ids.declaration }),
    },
    {
      mutation: 'cancelDistribution',
      action: 'distribution_declaration.cancelled',
      targetType: 'distribution_declaration',
      call: async () => {
        const id = await declare('2039-Q2');
        return { query: `mutation { cancelDistribution(id: ${id}) { id } }`, targetId: id };
      },
    },
    {
      mutation: 'markPayoutPaid',
      action: 'payout.paid',
      targetType: 'payout',
      call: async () => {
        const id = await pendingPayout();
        return { query: `mutation { markPayoutPaid(id: ${id}) { id } }`, targetId: id };
      },
    },
    {
      mutation: 'markPayoutFailed',
      action: 'payout.failed',
      targetType: 'payout',
      call: async () => {
        const id = await pendingPayout();
        return { query: `mutation { markPayoutFailed(id: ${id}) { id } }`, targetId: id };
      },
    },
    {
      mutation: 'approveKycDocument',
      action: 'kyc_document.approved',
      targetType: 'kyc_document',
      call: async () => {
        const id = await upload();
        return { query: `mutation { approveKycDocument(id: ${id}) { id } }`, targetId: id };
      },
    },
    {
      mutation: 'rejectKycDocument',
      action: 'kyc_document.rejected',
      targetType: 'kyc_document',
      call: async () => {
        const id = await upload();
        return { query: `mutation { rejectKycDocument(id: ${id}, reason: "Blurred") { id } }`, targetId: id };
      },
    },
  ];

  it('has a step for every admin mutation of the schema', () => {
    const adminOnly = Object.entries(MATRIX.Mutation)
      .filter(([, roles]) => roles.length === 1 && roles[0] === 'admin')
      .map(([name]) => name);
    expect(steps.map((s) => s.mutation).sort()).toEqual(adminOnly.sort());
  });

  it('every admin mutation writes its event, by the admin, on its target', async () => {
    [holder] = await verifiedHolders(1);
    const outcomes: string[] = [];
    for (const step of steps) {
      const { query, targetId } = await step.call();
      let result: Row = { id: 0 };
      const events = await eventsOf(async () => (result = first(await gql(query, adminToken))));
      if (step.mutation === 'createCategory') ids.category = result.id;
      if (step.mutation === 'createUnit') ids.unit = result.id;
      if (step.mutation === 'declareDistribution') ids.declaration = result.id;
      const target = String(targetId === 'new' ? result.id : targetId);
      const mine = events.find(
        (e) => e.action === step.action && e.targetType === step.targetType && e.targetId === target && e.actorId === adminId && e.actorRole === 'ADMIN',
      );
      outcomes.push(`${step.mutation}: ${mine ? 'recorded' : `missing (got ${events.map((e) => e.action).join(', ') || 'none'})`}`);
    }
    expect(outcomes).toEqual(steps.map((s) => `${s.mutation}: recorded`));
  });

  it('records what changed, before and after', async () => {
    const [category] = await t.db.prisma.auditEvent.findMany({ where: { action: 'category.updated', targetId: String(ids.category) } });
    expect(category.changes).toEqual({ before: { description: 'For the audit test' }, after: { description: 'Changed' } });
    const [config] = await t.db.prisma.auditEvent.findMany({ where: { action: 'app_config.updated' }, orderBy: { id: 'desc' }, take: 1 });
    expect(config.changes).toMatchObject({ after: { supportEmail: 'audit-support@example.com' } });
    const [unit] = await t.db.prisma.auditEvent.findMany({ where: { action: 'unit.updated', targetId: String(ids.unit) } });
    expect(unit.changes).toMatchObject({ before: { status: 'DRAFT' }, after: { status: 'AVAILABLE' } });
  });
});

describe('auditEvents and the CSV export', () => {
  it.each(['action', 'targetType', 'targetId'])('refuses a NUL byte in the %s filter as bad input, not a database error', async (field) => {
    const res = await gql(`query($f: AuditEventFilter) { auditEvents(filter: $f) { items { id } } }`, adminToken, { f: { [field]: 'a\u0000b' } });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('lists newest first in the paginated shape, filtered, for admins only', async () => {
    const res = await gql<{
      auditEvents: {
        items: {
          id: string;
          occurredAt: string;
          actor: { id: number; role: string } | null;
          action: string;
          target: { type: string; id: string } | null;
          changes: unknown;
        }[];
        pageInfo: { total: number };
      };
    }>(
      `query { auditEvents(filter: { action: "category.updated" }, perPage: 5) { items { id occurredAt actor { id role } action target { type id } changes requestId ip userAgent } pageInfo { currentPage perPage total lastPage from to hasNextPage hasPreviousPage } } }`,
      adminToken,
    );
    expect(res.errors).toBeUndefined();
    const page = res.data!.auditEvents;
    expect(page.pageInfo.total).toBe(await t.db.prisma.auditEvent.count({ where: { action: 'category.updated' } }));
    expect(page.items[0]).toMatchObject({
      action: 'category.updated',
      actor: { id: adminId, role: 'ADMIN' },
      target: { type: 'category' },
      changes: { after: { description: 'Changed' } },
    });

    const all = await gql<{ auditEvents: { items: { id: string; occurredAt: string }[] } }>(
      'query { auditEvents(perPage: 100) { items { id occurredAt } } }',
      adminToken,
    );
    const items = all.data!.auditEvents.items;
    const sorted = [...items].sort((a, b) => b.occurredAt.localeCompare(a.occurredAt) || Number(BigInt(b.id) - BigInt(a.id)));
    expect(items).toEqual(sorted);

    const byActor = await gql<{ auditEvents: { items: { actor: { id: number } }[] } }>(
      `query { auditEvents(filter: { actorId: ${adminId}, targetType: "unit", from: "2000-01-01T00:00:00Z" }) { items { actor { id } target { type } } } }`,
      adminToken,
    );
    expect(byActor.data!.auditEvents.items.length).toBeGreaterThan(0);
    expect(byActor.data!.auditEvents.items.every((e) => e.actor.id === adminId)).toBe(true);

    expect((await gql('query { auditEvents { pageInfo { total } } }', analystToken)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql('query { auditEvents { pageInfo { total } } }')).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await gql('query { auditEvents(perPage: 101) { pageInfo { total } } }', adminToken)).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  /** The CSV behind an auditEventsExport link for `filter`, as text. */
  async function exportCsv(filter: string): Promise<{ status: number; type: string; text: string }> {
    const link = await gql<{ auditEventsExport: { url: string; contentType: string } }>(
      `query { auditEventsExport(filter: ${filter}) { url contentType } }`,
      adminToken,
    );
    expect(link.errors).toBeUndefined();
    const res = await t.http
      .get(link.data!.auditEventsExport.url)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks).toString('utf8')));
      });
    return { status: res.status, type: res.headers['content-type'], text: res.body as string };
  }

  it('exports a filtered range as CSV through a signed link', async () => {
    const res = await exportCsv('{ targetType: "payout" }');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/text\/csv/);
    // The one CSV writer's format (src/services/csv.ts): a BOM, CRLF records.
    expect(res.text.startsWith('\ufeff')).toBe(true);
    const lines = res.text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('id,occurred_at,actor_id,actor_role,action,target_type,target_id,changes,request_id,ip,user_agent');
    const expected = await t.db.prisma.auditEvent.findMany({ where: { targetType: 'payout' }, orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }] });
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected.map((e) => String(e.id)));
  });

  it('neutralises formulas a client put in a recorded text: a failed login with User-Agent =HYPERLINK(…) (issue 22, finding 9)', async () => {
    const email = `formula-${process.pid}@example.test`;
    // Header values lose their leading whitespace on the way in: the tab one is stored as =1+2.
    const agents = ['=HYPERLINK("http://x","open")', '+1+2', '-2+3', '@SUM(A1)', '\t=1+2'];
    for (const agent of agents) {
      const res = await t.http.post('/api/v1/auth/login').set('user-agent', agent).send({ email, password: 'wrong password' });
      expect(res.status).toBe(422); // wrong credentials, as Laravel answers them
    }
    const res = await exportCsv('{ action: "auth.login_failed" }');
    expect(res.status).toBe(200);
    // The user agent is the last cell of a record; csv-stringify quotes a cell with a quote in it.
    for (const cell of [`"'=HYPERLINK(""http://x"",""open"")"`, "'+1+2", "'-2+3", "'@SUM(A1)", "'=1+2"]) expect(res.text).toContain(`,${cell}\r\n`);
    // No cell of any record starts with a formula character, quoted or not.
    expect(res.text).not.toMatch(/(^|,|\r\n)"?[=+\-@]/);
  });
});

describe('the hash chain', () => {
  it('50 concurrent money requests give 50 events and an intact chain', async () => {
    const holders = await verifiedHolders(8);
    // Spread over a few units: requests for one unit queue on its row lock, which is not what this measures.
    const units = await roomyUnits(25, 5);
    const last = (await t.db.prisma.auditEvent.findFirst({ orderBy: { id: 'desc' } }))?.id ?? 0n;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const h = holders[i % holders.length];
        const { unitId, amount } = units[i % units.length];
        return i % 2
          ? t.http
              .post('/api/v1/investment-requests')
              .set('authorization', `Bearer ${h.token}`)
              .send({ unit_id: unitId, amount: Number(amount) })
          : t.http
              .post('/api/v1/withdrawals/requests')
              .set('authorization', `Bearer ${h.token}`)
              .send({ unit_id: h.unitId, ownership_percentage: 0.0001, reason: 'load' });
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const events = await t.db.prisma.auditEvent.findMany({ where: { id: { gt: last } } });
    expect(events).toHaveLength(50);
    expect(events.filter((e) => e.action === 'withdrawal_request.created')).toHaveLength(25);
    await sealAll();
    const result = await t.services.audit.verify();
    expect(result).toMatchObject({ ok: true, pending: 0, count: await t.db.prisma.auditEvent.count() });
  });

  it("refuses UPDATE, DELETE and TRUNCATE on the trail, even to the tables' owner", async () => {
    await sealAll();
    // The gateway's own role has no such privilege at all (test/least-privilege.test.ts); the triggers hold for the owner too.
    const refused = (sql: string) => expect(t.sqlAs('owner', sql)).rejects.toThrow(/append-only/);
    await refused(`UPDATE audit_events SET action = 'x' WHERE id = (SELECT min(id) FROM audit_events)`);
    await refused('DELETE FROM audit_events WHERE id = (SELECT min(id) FROM audit_events)');
    await refused('DELETE FROM audit_seals');
    await refused('TRUNCATE audit_events');
  });

  /** As a superuser could: with triggers off, in one transaction. */
  const asSuperuser = (...statements: string[]) => t.sqlAs('superuser', 'SET LOCAL session_replication_role = replica', ...statements);
  const verifyOutput = async () => {
    const out: string[] = [];
    const code = await runVerify(t.services.audit, (line) => out.push(line));
    return { code, text: out.join('\n') };
  };

  it('names an event changed behind the trigger, and passes again once it is restored', async () => {
    await sealAll();
    const victim = await t.db.prisma.auditEvent.findFirstOrThrow({ where: { action: 'withdrawal_request.created' }, orderBy: { id: 'asc' } });
    await asSuperuser(`UPDATE audit_events SET changes = jsonb_set(changes, '{after,ownershipPercentage}', '"99"') WHERE id = ${victim.id}`);
    const broken = await verifyOutput();
    expect(broken.code).not.toBe(0);
    expect(broken.text).toContain(`event ${victim.id} was changed`);
    await asSuperuser(`UPDATE audit_events SET changes = '${JSON.stringify(victim.changes)}'::jsonb WHERE id = ${victim.id}`);
    const fixed = await verifyOutput();
    expect(fixed.code).toBe(0);
    expect(fixed.text).toMatch(/intact: \d+ events/);
  });

  it('names an event deleted behind the trigger, with or without its seal', async () => {
    // One in the middle: cutting the newest events off the end is only seen against a recorded head (docs/audit.md).
    const victim = await t.db.prisma.auditEvent.findFirstOrThrow({ where: { action: 'investment_request.created' }, orderBy: { id: 'asc' } });
    const seal = await t.db.prisma.auditSeal.findUniqueOrThrow({ where: { eventId: victim.id } });
    const eventRow = await t.db.prisma.$queryRawUnsafe<{ row: string }[]>(`SELECT row_to_json(e)::text AS row FROM audit_events e WHERE id = ${victim.id}`);
    const restoreEvent = `INSERT INTO audit_events SELECT * FROM json_populate_record(NULL::audit_events, '${eventRow[0].row.replace(/'/g, "''")}')`;
    const restoreSeal = `INSERT INTO audit_seals (seq, event_id, event_xid, hash, sealed_at) VALUES (${seal.seq}, ${seal.eventId}, ${seal.eventXid}, '${seal.hash}', now())`;

    await asSuperuser(`DELETE FROM audit_events WHERE id = ${victim.id}`);
    expect((await verifyOutput()).text).toContain(`event ${victim.id} was removed`);
    await asSuperuser(`DELETE FROM audit_seals WHERE event_id = ${victim.id}`);
    const gap = await verifyOutput();
    expect(gap.code).not.toBe(0);
    expect(gap.text).toContain(`chain position ${seal.seq} is missing`);
    await asSuperuser(restoreEvent, restoreSeal);
    expect((await verifyOutput()).code).toBe(0);
  });

  it('names an event inserted behind the chain head', async () => {
    const [{ id }] = await t.db.prisma.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO audit_events (action, xid) VALUES ('withdrawal_request.approved', 1) RETURNING id::text AS id`,
    );
    const result = await verifyOutput();
    expect(result.code).not.toBe(0);
    expect(result.text).toContain(`event ${id} was inserted out of order`);
    await asSuperuser(`DELETE FROM audit_events WHERE id = ${id}`);
    expect((await verifyOutput()).code).toBe(0);
  });

  it('never stores a password, token, reset code or file contents', async () => {
    const rows = await t.db.prisma.$queryRawUnsafe<{ row: string }[]>('SELECT row_to_json(e)::text AS row FROM audit_events e');
    expect(rows.length).toBeGreaterThan(50);
    const hashes = (await t.db.prisma.user.findMany({ select: { passwordHash: true }, take: 50 })).map((u) => u.passwordHash);
    const text = rows.map((r) => r.row).join('\n');
    const found = [...secrets, ...hashes].filter((s) => s.length >= 8 && text.includes(s));
    expect(found).toEqual([]);
  });

  it('retention removes a whole sealed prefix through audit_prune, records an anchor, and the chain still verifies', async () => {
    await sealAll();
    const total = await t.db.prisma.auditEvent.count();
    // A cutoff in the future: everything sealed is old enough.
    const removed = await t.services.audit.prune(-1);
    expect(removed).toBe(total);
    expect(await t.db.prisma.auditAnchor.count()).toBe(1);
    const account = await newAccount();
    await eventsOf(() => t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${account.token}`));
    await sealAll();
    const result = await t.services.audit.verify();
    expect(result).toMatchObject({ ok: true, count: 1, pruned: total });
    await expect(t.sqlAs('owner', 'DELETE FROM audit_events')).rejects.toThrow(/append-only/);
  });
});

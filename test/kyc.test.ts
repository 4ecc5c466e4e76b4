import { randomUUID } from 'node:crypto';
import type { KycDocumentStatus } from '../src/generated/prisma/enums';
import { KYC_DOCUMENT } from '../src/services/state-machine';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

let t: TestGateway;
let admin: string;
let analyst: string;
let investor: string;
let adminUserId: number;
let demoInvestorId: number;
let otherInvestorId: number;

beforeAll(async () => {
  t = await startTestGateway();
  [admin, analyst, investor] = await Promise.all([t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst), t.token(DEMO_EMAILS.investor)]);
  adminUserId = (await t.db.prisma.user.findUniqueOrThrow({ where: { email: DEMO_EMAILS.admin } })).id;
  demoInvestorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
  otherInvestorId = (await t.db.prisma.kycDocument.findFirstOrThrow({ where: { investorId: { not: demoInvestorId } }, orderBy: { id: 'asc' } })).investorId;
});
afterAll(() => t.close());

const get = (url: string, bearer?: string) => {
  const req = t.http.get(url);
  return bearer ? req.set('authorization', `Bearer ${bearer}`) : req;
};

const laravelTime = (d: Date | null) => (d ? d.toISOString().slice(0, 19) + '+00:00' : null);

/** The rule, restated independently of the code under test. */
function expectedStatus(statuses: KycDocumentStatus[]) {
  if (statuses.includes('APPROVED')) return 'APPROVED';
  if (statuses.includes('PENDING')) return 'PENDING';
  if (statuses.includes('REJECTED')) return 'REJECTED';
  return 'NOT_SUBMITTED';
}

async function expectedSummary(investorId: number) {
  const docs = await t.db.prisma.kycDocument.findMany({ where: { investorId } });
  const reviewed = docs
    .map((d) => d.reviewedAt)
    .filter((d): d is Date => d !== null)
    .sort((a, b) => b.getTime() - a.getTime());
  return {
    status: expectedStatus(docs.map((d) => d.status)),
    documentsCount: docs.length,
    approvedCount: docs.filter((d) => d.status === 'APPROVED').length,
    pendingCount: docs.filter((d) => d.status === 'PENDING').length,
    rejectedCount: docs.filter((d) => d.status === 'REJECTED').length,
    lastReviewedAt: reviewed[0] ?? null,
  };
}

/** A freshly uploaded document (the upload route is not part of this feature). */
const pendingDoc = (investorId: number) =>
  t.db.prisma.kycDocument.create({
    data: {
      investorId,
      documentType: 'NATIONAL_ID',
      storageKey: `kyc/test-${randomUUID()}`,
      mimeType: 'image/png',
      sizeBytes: 12345,
      checksum: 'x'.repeat(64),
    },
  });

async function snapshot(id: number) {
  const [doc, notifications] = await Promise.all([t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id } }), t.db.prisma.notification.count()]);
  return { doc, notifications };
}

describe('GET /api/v1/kyc/documents', () => {
  it('answers the investor’s own documents as a plain array, newest first', async () => {
    const res = await get('/api/v1/kyc/documents', investor);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const expected = await t.db.prisma.kycDocument.findMany({ where: { investorId: demoInvestorId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual(expected.map((d) => d.id));
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'document_type',
      'status',
      'mime_type',
      'size_bytes',
      'rejection_reason',
      'reviewed_at',
      'created_at',
    ]);
    const rejected = expected.find((d) => d.status === 'REJECTED')!;
    expect(res.body.data.find((d: { id: number }) => d.id === rejected.id)).toEqual({
      id: rejected.id,
      document_type: rejected.documentType.toLowerCase(),
      status: 'rejected',
      mime_type: rejected.mimeType,
      size_bytes: rejected.sizeBytes,
      rejection_reason: rejected.rejectionReason,
      reviewed_at: laravelTime(rejected.reviewedAt),
      created_at: laravelTime(rejected.createdAt),
    });
  });

  it('never shows another investor’s documents, whatever investor_id says', async () => {
    const res = await get(`/api/v1/kyc/documents?investor_id=${otherInvestorId}`, investor);
    expect(res.status).toBe(200);
    const own = await t.db.prisma.kycDocument.count({ where: { investorId: demoInvestorId } });
    expect(res.body.data).toHaveLength(own);
  });

  it('lets staff read one investor’s documents or filter by status', async () => {
    const res = await get(`/api/v1/kyc/documents?investor_id=${otherInvestorId}`, analyst);
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual(
      (await t.db.prisma.kycDocument.findMany({ where: { investorId: otherInvestorId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })).map((d) => d.id),
    );
    const pending = await get('/api/v1/kyc/documents?status=pending', admin);
    expect(pending.body.data).toHaveLength(await t.db.prisma.kycDocument.count({ where: { status: 'PENDING' } }));
  });

  it('answers 422 for a bad filter and 401 without a token', async () => {
    const bad = await get('/api/v1/kyc/documents?status=lost', investor);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty('status');
    const anon = await get('/api/v1/kyc/documents');
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});

describe('GET /api/v1/kyc/status', () => {
  it('answers the investor’s derived status and counts', async () => {
    const res = await get('/api/v1/kyc/status', investor);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['status', 'documents_count', 'approved_count', 'pending_count', 'rejected_count', 'last_reviewed_at']);
    const e = await expectedSummary(demoInvestorId);
    expect(res.body.data).toEqual({
      status: e.status.toLowerCase(),
      documents_count: e.documentsCount,
      approved_count: e.approvedCount,
      pending_count: e.pendingCount,
      rejected_count: e.rejectedCount,
      last_reviewed_at: laravelTime(e.lastReviewedAt),
    });
  });

  it('answers not_submitted for a new investor', async () => {
    const email = `kyc-${randomUUID()}@example.com`;
    const reg = await t.http.post('/api/v1/auth/register').send({ name: 'New Investor', email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD });
    expect(reg.status).toBe(201);
    const res = await get('/api/v1/kyc/status', reg.body.data.access_token);
    expect(res.body.data).toEqual({
      status: 'not_submitted',
      documents_count: 0,
      approved_count: 0,
      pending_count: 0,
      rejected_count: 0,
      last_reviewed_at: null,
    });
  });

  it('lets staff name the investor: required (422), unknown is 404', async () => {
    const res = await get(`/api/v1/kyc/status?investor_id=${otherInvestorId}`, analyst);
    expect(res.status).toBe(200);
    expect(res.body.data.documents_count).toBe((await expectedSummary(otherInvestorId)).documentsCount);
    const missing = await get('/api/v1/kyc/status', admin);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ investor_id: ['The investor id field is required.'] });
    const unknown = await get('/api/v1/kyc/status?investor_id=99999999', admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Resource not found.' });
  });

  it('requires a bearer token', async () => {
    expect((await get('/api/v1/kyc/status')).status).toBe(401);
  });
});

describe('GraphQL KYC queries', () => {
  it('serves kycDocuments and kycStatus like REST', async () => {
    const res = await t.gql<{ kycDocuments: Array<{ id: number; status: string }>; kycStatus: { status: string; documentsCount: number } }>(
      `{ kycDocuments { id status } kycStatus { status documentsCount } }`,
      {},
      investor,
    );
    const e = await expectedSummary(demoInvestorId);
    expect(res.data!.kycDocuments).toHaveLength(e.documentsCount);
    expect(res.data!.kycStatus).toEqual({ status: e.status, documentsCount: e.documentsCount });
  });

  it('answers one’s own document, NOT_FOUND for another investor’s, UNAUTHENTICATED without a token', async () => {
    const QUERY = `query($id: Int!) { kycDocument(id: $id) { id investorId status } }`;
    const own = await t.db.prisma.kycDocument.findFirstOrThrow({ where: { investorId: demoInvestorId } });
    expect((await t.gql(QUERY, { id: own.id }, investor)).data).toEqual({ kycDocument: { id: own.id, investorId: demoInvestorId, status: own.status } });
    const other = await t.db.prisma.kycDocument.findFirstOrThrow({ where: { investorId: otherInvestorId } });
    expect((await t.gql(QUERY, { id: other.id }, investor)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(QUERY, { id: other.id }, analyst)).data).toEqual({ kycDocument: { id: other.id, investorId: otherInvestorId, status: other.status } });
    expect((await t.gql(QUERY, { id: own.id })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.gql(`{ kycStatus { status } }`)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('reviewing KYC documents', () => {
  const APPROVE = `mutation($id: Int!) { approveKycDocument(id: $id) { id status rejectionReason reviewedAt } }`;
  const REJECT = `mutation($id: Int!, $reason: String!) { rejectKycDocument(id: $id, reason: $reason) { id status rejectionReason reviewedAt } }`;
  /** `token` null: no bearer token at all. */
  const review = (to: 'APPROVED' | 'REJECTED', id: number, token: string | null = admin) =>
    to === 'APPROVED' ? t.gql(APPROVE, { id }, token ?? undefined) : t.gql(REJECT, { id, reason: 'The photo is blurred.' }, token ?? undefined);

  it('approves a pending document, notifies the investor, and the derived status follows', async () => {
    const investorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { kycDocuments: { none: {} } } })).id;
    const doc = await pendingDoc(investorId);
    expect(
      (await t.gql<{ kycStatus: { status: string } }>(`query($i: Int) { kycStatus(investorId: $i) { status } }`, { i: investorId }, admin)).data!.kycStatus
        .status,
    ).toBe('PENDING');
    const res = await review('APPROVED', doc.id);
    expect(res.data).toMatchObject({ approveKycDocument: { id: doc.id, status: 'APPROVED', rejectionReason: null } });
    const stored = await t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id: doc.id }, include: { investor: true } });
    expect(stored).toMatchObject({ status: 'APPROVED', reviewedById: adminUserId });
    expect(stored.reviewedAt).not.toBeNull();
    const note = await t.db.prisma.notification.findFirstOrThrow({ where: { userId: stored.investor.userId }, orderBy: { id: 'desc' } });
    expect(note).toMatchObject({ type: 'KYC_REVIEWED', data: { kycDocumentId: doc.id, status: 'APPROVED' } });
    expect(
      (await t.gql<{ kycStatus: { status: string } }>(`query($i: Int) { kycStatus(investorId: $i) { status } }`, { i: investorId }, admin)).data!.kycStatus
        .status,
    ).toBe('APPROVED');
  });

  it('rejects with the reason the investor is told', async () => {
    const doc = await pendingDoc(otherInvestorId);
    const res = await review('REJECTED', doc.id);
    expect(res.data).toMatchObject({ rejectKycDocument: { id: doc.id, status: 'REJECTED', rejectionReason: 'The photo is blurred.' } });
    const userId = (await t.db.prisma.investor.findUniqueOrThrow({ where: { id: otherInvestorId } })).userId;
    const note = await t.db.prisma.notification.findFirstOrThrow({ where: { userId }, orderBy: { id: 'desc' } });
    expect(note.type).toBe('KYC_REVIEWED');
    expect(note.body).toContain('The photo is blurred.');
  });

  it('requires a reason to reject: BAD_USER_INPUT, nothing changed', async () => {
    const doc = await pendingDoc(otherInvestorId);
    const before = await snapshot(doc.id);
    for (const reason of ['', '  ']) {
      const res = await t.gql(REJECT, { id: doc.id, reason }, admin);
      expect(res.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { reason: ['The reason field is required.'] } });
    }
    expect(await snapshot(doc.id)).toEqual(before);
  });

  const illegal = (['APPROVED', 'REJECTED'] as const).flatMap((to) =>
    (Object.keys(KYC_DOCUMENT.next) as KycDocumentStatus[])
      .filter((from) => !(KYC_DOCUMENT.next[from] as readonly string[]).includes(to))
      .map((from) => [to, from] as const),
  );
  it.each(illegal)('refuses → %s from %s with 409 and changes nothing', async (to, from) => {
    const doc = await t.db.prisma.kycDocument.findFirstOrThrow({ where: { status: from } });
    const before = await snapshot(doc.id);
    const res = await review(to, doc.id);
    expect(res.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(res.errors?.[0].message).toBe(`This KYC document is ${from.toLowerCase()} and cannot be ${to.toLowerCase()}.`);
    expect(await snapshot(doc.id)).toEqual(before);
  });

  it('lets only one of two concurrent reviews through', async () => {
    const doc = await pendingDoc(otherInvestorId);
    const results = await Promise.all([review('APPROVED', doc.id), review('REJECTED', doc.id)]);
    expect(results.map((r) => (r.errors?.[0].extensions?.code as string) ?? 'OK').sort()).toEqual(['CONFLICT', 'OK']);
  });

  it('is for admins: investors and analysts get FORBIDDEN, guests UNAUTHENTICATED, a missing id NOT_FOUND', async () => {
    const doc = await pendingDoc(demoInvestorId);
    const before = await snapshot(doc.id);
    for (const to of ['APPROVED', 'REJECTED'] as const) {
      expect((await review(to, doc.id, investor)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect((await review(to, doc.id, analyst)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect((await review(to, doc.id, null)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect((await review(to, 99999999)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    expect(await snapshot(doc.id)).toEqual(before);
  });
});

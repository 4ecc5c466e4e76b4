import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Response } from 'superagent';
import type { AuthUser } from '../src/context';
import type { Prisma } from '../src/db/database';
import { Role } from '../src/generated/prisma/enums';
import { DownloadService } from '../src/services/download.service';
import { KycService } from '../src/services/kyc.service';
import type { FileStorage } from '../src/services/storage/file-storage';
import { DEMO_EMAILS, DEMO_PASSWORD, startTestGateway, type TestGateway } from './support/harness';

/** Small on purpose, so the size limit is cheap to cross on both faces. */
const MAX_BYTES = 64 * 1024;
const TOO_BIG = 'The file field must not be greater than 64 kilobytes.';
const NOT_A_DOCUMENT = 'The file must be a PDF, JPEG or PNG document.';
const REST_FIELDS = ['id', 'document_type', 'status', 'mime_type', 'size_bytes', 'rejection_reason', 'reviewed_at', 'created_at'];

let t: TestGateway;
let storageDir: string;
let admin: string;
let analyst: string;
let investor: string;
let stranger: string;
let demoInvestorId: number;

const pdf = (size = 2048) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
const jpeg = (size = 2048) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size - 4)]);
const png = (size = 2048) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'kyc-upload-'));
  t = await startTestGateway({ STORAGE_DIR: storageDir, UPLOAD_MAX_BYTES: String(MAX_BYTES) });
  [admin, analyst, investor] = await Promise.all([t.token(DEMO_EMAILS.admin), t.token(DEMO_EMAILS.analyst), t.token(DEMO_EMAILS.investor)]);
  demoInvestorId = (await t.db.prisma.investor.findFirstOrThrow({ where: { user: { email: DEMO_EMAILS.investor } } })).id;
  const email = `kyc-upload-${randomUUID()}@example.com`;
  const reg = await t.http.post('/api/v1/auth/register').send({ name: 'Other Investor', email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD });
  stranger = reg.body.data.access_token;
});
afterAll(async () => {
  await t.close();
  await rm(storageDir, { recursive: true, force: true });
});

const storedFiles = async () => (await readdir(storageDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

const upload = (token: string | null, documentType: string | null, file?: { bytes: Buffer; name: string; type?: string }) => {
  const req = t.http.post('/api/v1/kyc/documents');
  if (token) req.set('authorization', `Bearer ${token}`);
  if (documentType !== null) req.field('document_type', documentType);
  if (file) req.attach('file', file.bytes, { filename: file.name, contentType: file.type ?? 'application/octet-stream' });
  return req;
};

/** Collects the raw body whatever its content type. */
const binary = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};
const fetchFile = (url: string, token?: string) => {
  const req = t.http.get(url).buffer(true).parse(binary);
  return token ? req.set('authorization', `Bearer ${token}`) : req;
};

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const UPLOAD = `mutation($input: UploadKycDocumentInput!) { uploadKycDocument(input: $input) { id investorId documentType status mimeType sizeBytes } }`;
const gqlUpload = (token: string, bytes: Buffer | string, documentType = 'PASSPORT') =>
  t.gql<{ uploadKycDocument: { id: number; investorId: number; documentType: string; status: string; mimeType: string; sizeBytes: number } }>(
    UPLOAD, { input: { documentType, file: { fileName: 'scan.bin', contentBase64: typeof bytes === 'string' ? bytes : bytes.toString('base64') } } }, token,
  );
const DOWNLOAD = `query($id: Int!) { kycDocumentDownload(id: $id) { fileName contentType url expiresAt } }`;

async function uploaded(bytes = pdf()) {
  const res = await upload(investor, 'passport', { bytes, name: 'passport.pdf', type: 'application/pdf' });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as number, bytes };
}

describe('POST /api/v1/kyc/documents', () => {
  it('stores the file under an anonymous key and answers 201 with the PENDING document, as the list shows it', async () => {
    const filesBefore = await storedFiles();
    const bytes = pdf();
    const res = await upload(investor, 'proof_of_address', { bytes, name: `my-bill-${demoInvestorId}.pdf`, type: 'application/pdf' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    expect(Object.keys(res.body.data)).toEqual(REST_FIELDS);
    const row = await t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row).toMatchObject({
      investorId: demoInvestorId, documentType: 'PROOF_OF_ADDRESS', status: 'PENDING', mimeType: 'application/pdf', sizeBytes: bytes.length,
      checksum: createHash('sha256').update(bytes).digest('hex'), rejectionReason: null, reviewedAt: null,
    });
    expect(row.storageKey).toMatch(/^kyc\/[0-9a-f-]{36}$/);
    expect(res.body.data).toMatchObject({ id: row.id, document_type: 'proof_of_address', status: 'pending', mime_type: 'application/pdf', size_bytes: bytes.length });
    // Exactly one new file, holding the bytes, named after nothing the user sent.
    const added = (await storedFiles()).filter((f) => !filesBefore.includes(f));
    expect(added).toHaveLength(1);
    expect(path.relative(storageDir, added[0]).split(path.sep).join('/')).toMatch(/^kyc\/[0-9a-f-]{36}$/);
    expect(await readAll(await t.services.kyc.storage.get(row.storageKey))).toEqual(bytes);
  });

  it('is reflected at once by the document list and the KYC status', async () => {
    const statusBefore = (await t.http.get('/api/v1/kyc/status').set('authorization', `Bearer ${stranger}`)).body.data;
    expect(statusBefore).toMatchObject({ status: 'not_submitted', documents_count: 0 });
    const res = await upload(stranger, 'national_id', { bytes: jpeg(), name: 'id.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(201);
    const list = await t.http.get('/api/v1/kyc/documents').set('authorization', `Bearer ${stranger}`);
    expect(list.body.data).toEqual([res.body.data]);
    const status = await t.http.get('/api/v1/kyc/status').set('authorization', `Bearer ${stranger}`);
    expect(status.body.data).toMatchObject({ status: 'pending', documents_count: 1, pending_count: 1 });
  });

  it('tells the type from the content only, never from the name or the declared type', async () => {
    const asPng = await upload(investor, 'passport', { bytes: png(), name: 'scan.pdf', type: 'application/pdf' });
    expect(asPng.status).toBe(201);
    expect(asPng.body.data.mime_type).toBe('image/png');
    const asJpeg = await upload(investor, 'other', { bytes: jpeg(), name: 'notes.txt', type: 'text/plain' });
    expect(asJpeg.body.data.mime_type).toBe('image/jpeg');
  });

  it('refuses anything else with 422, storing nothing', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const cases: Array<[ReturnType<typeof upload>, Record<string, string[]>]> = [
      [upload(investor, 'passport', { bytes: Buffer.from('just some text, not a %PDF-'), name: 'passport.pdf', type: 'application/pdf' }), { file: [NOT_A_DOCUMENT] }],
      [upload(investor, 'passport', { bytes: Buffer.from('GIF89a' + 'x'.repeat(100)), name: 'photo.png', type: 'image/png' }), { file: [NOT_A_DOCUMENT] }],
      [upload(investor, 'passport', { bytes: png(MAX_BYTES + 1), name: 'big.png', type: 'image/png' }), { file: [TOO_BIG] }],
      [upload(investor, 'passport'), { file: ['The file field is required.'] }],
      [upload(investor, null, { bytes: pdf(), name: 'a.pdf' }), { document_type: ['The document type field is required.'] }],
      [upload(investor, 'selfie', { bytes: pdf(), name: 'a.pdf' }), { document_type: ['The selected document type is invalid.'] }],
    ];
    for (const [req, errors] of cases) {
      const res = await req;
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, errors });
    }
    const empty = await upload(investor, 'passport', { bytes: Buffer.alloc(0), name: 'empty.pdf', type: 'application/pdf' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ file: ['The file field is required.'] });
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('accepts a file of exactly the limit', async () => {
    const res = await upload(investor, 'bank_statement', { bytes: pdf(MAX_BYTES), name: 'statement.pdf' });
    expect(res.status).toBe(201);
    expect(res.body.data.size_bytes).toBe(MAX_BYTES);
  });

  it('is for investors only: 401 without a token, 403 for staff', async () => {
    expect((await upload(null, 'passport', { bytes: pdf(), name: 'a.pdf' })).status).toBe(401);
    const staff = await upload(admin, 'passport', { bytes: pdf(), name: 'a.pdf' });
    expect(staff.status).toBe(403);
    expect(staff.body).toEqual({ success: false, message: 'This action is unauthorized.' });
  });
});

describe('GraphQL uploadKycDocument', () => {
  it('takes the file base64-encoded and applies the same rules', async () => {
    const bytes = png();
    const res = await gqlUpload(investor, bytes);
    expect(res.errors).toBeUndefined();
    const doc = res.data!.uploadKycDocument;
    expect(doc).toMatchObject({ investorId: demoInvestorId, documentType: 'PASSPORT', status: 'PENDING', mimeType: 'image/png', sizeBytes: bytes.length });
    const row = await t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id: doc.id } });
    expect(await readAll(await t.services.kyc.storage.get(row.storageKey))).toEqual(bytes);

    const atLimit = await gqlUpload(investor, jpeg(MAX_BYTES));
    expect(atLimit.data?.uploadKycDocument.sizeBytes).toBe(MAX_BYTES);

    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const refusals: Array<[Buffer | string, string]> = [
      [Buffer.from('plain text'), NOT_A_DOCUMENT],
      ['', 'The file must not be empty.'],
      ['not base64!', 'The file content must be base64-encoded.'],
      [jpeg(MAX_BYTES + 1), TOO_BIG],
    ];
    for (const [content, message] of refusals) {
      expect((await gqlUpload(investor, content)).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { file: [message] } });
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('validates the file name and refuses staff', async () => {
    const noName = await t.gql(UPLOAD, { input: { documentType: 'PASSPORT', file: { fileName: '', contentBase64: pdf().toString('base64') } } }, investor);
    expect(noName.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(noName.errors?.[0].message).toBe('The file name field is required.');
    expect((await gqlUpload(analyst, pdf())).errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});

describe('a failed upload leaves nothing half-written', () => {
  it('storage fails → no row', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const put = jest.spyOn(t.services.kyc.storage, 'put').mockRejectedValueOnce(new Error('disk full'));
    try {
      const res = await upload(investor, 'passport', { bytes: pdf(), name: 'a.pdf' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, message: 'Server Error.' });
    } finally {
      put.mockRestore();
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('the insert fails → the stored file is removed again', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const written: string[] = [];
    const storage = t.services.kyc.storage;
    const recording: FileStorage = {
      put: (key, content) => (written.push(key), storage.put(key, content)),
      get: (key) => storage.get(key),
      delete: (key) => storage.delete(key),
      exists: (key) => storage.exists(key),
    };
    // The same service over a client whose KYC insert fails, as a constraint or a lost connection would
    // (inside a transaction too: the insert commits with its audit event).
    const failInsert = <C extends object>(client: C): C =>
      new Proxy(client, {
        get: (target, prop, receiver) =>
          prop === 'kycDocument'
            ? { create: () => Promise.reject(new Error('insert failed')) }
            : prop === '$transaction'
              ? (work: (tx: object) => Promise<unknown>) => t.db.prisma.$transaction((tx) => work(failInsert(tx)))
              : Reflect.get(target, prop, receiver),
      });
    const failing = failInsert(t.db.prisma) as Prisma;
    const service = new KycService(failing, new DownloadService('test-secret'), recording, MAX_BYTES);
    const user: AuthUser = { id: 0, role: Role.INVESTOR, investorId: demoInvestorId, sessionId: 'test' };
    await expect(service.upload(user, { documentType: 'PASSPORT', file: { contentBase64: pdf().toString('base64') } })).rejects.toThrow('insert failed');
    expect(written).toHaveLength(1);
    expect(await storage.exists(written[0])).toBe(false);
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });
});

describe('downloading a KYC document', () => {
  it('answers the owner the identical bytes as an attachment, on REST and through the GraphQL link', async () => {
    const { id, bytes } = await uploaded();
    const rest = await fetchFile(`/api/v1/kyc/documents/${id}/download`, investor);
    expect(rest.status).toBe(200);
    expect(rest.headers['content-type']).toBe('application/pdf');
    expect(rest.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="passport-${id}\\.pdf"`));
    expect(Buffer.compare(rest.body as Buffer, bytes)).toBe(0);

    const res = await t.gql<{ kycDocumentDownload: { fileName: string; contentType: string; url: string; expiresAt: string } }>(DOWNLOAD, { id }, investor);
    expect(res.errors).toBeUndefined();
    const link = res.data!.kycDocumentDownload;
    expect(link).toMatchObject({ fileName: `passport-${id}.pdf`, contentType: 'application/pdf' });
    expect(new Date(link.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const viaLink = await fetchFile(link.url); // the signed link needs no token
    expect(viaLink.status).toBe(200);
    expect(Buffer.compare(viaLink.body as Buffer, bytes)).toBe(0);
  });

  it('serves staff too, with the detected content type', async () => {
    const bytes = jpeg();
    const res = await upload(investor, 'driving_license', { bytes, name: 'licence.pdf', type: 'application/pdf' });
    for (const token of [admin, analyst]) {
      const file = await fetchFile(`/api/v1/kyc/documents/${res.body.data.id}/download`, token);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('image/jpeg');
      expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
    }
  });

  it('is 404 for another investor, an unknown or malformed id, and 401 without a token', async () => {
    const { id } = await uploaded();
    const other = await t.http.get(`/api/v1/kyc/documents/${id}/download`).set('authorization', `Bearer ${stranger}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ success: false, message: 'Resource not found.' });
    expect((await t.gql(DOWNLOAD, { id }, stranger)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.http.get('/api/v1/kyc/documents/99999999/download').set('authorization', `Bearer ${investor}`)).status).toBe(404);
    expect((await t.http.get('/api/v1/kyc/documents/abc/download').set('authorization', `Bearer ${investor}`)).status).toBe(404);
    expect((await t.http.get(`/api/v1/kyc/documents/${id}/download`)).status).toBe(401);
  });

  it('is 404 for a forged, re-targeted or expired link', async () => {
    const { id, bytes } = await uploaded();
    const strangers = (await t.gql<{ kycDocumentDownload: { url: string } }>(DOWNLOAD, { id: (await uploadedBy(stranger)).id }, stranger)).data!.kycDocumentDownload.url;
    const url = (await t.gql<{ kycDocumentDownload: { url: string } }>(DOWNLOAD, { id }, investor)).data!.kycDocumentDownload.url;
    const [payload, signature] = url.split('/').pop()!.split('.');
    const forged = `${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await t.http.get(`/api/v1/downloads/${forged}`)).status).toBe(404);
    // The investor's signature on the stranger's claims: not a valid link either.
    const [otherPayload] = strangers.split('/').pop()!.split('.');
    expect((await t.http.get(`/api/v1/downloads/${otherPayload}.${signature}`)).status).toBe(404);
    const token = url.split('/').pop()!;
    await expect(t.services.downloads.open(token, new Date(Date.now() + 3600_000))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const file = await t.services.downloads.open(token);
    expect(Buffer.compare(await readAll(file.stream), bytes)).toBe(0);
  });

  it('is 404 when the document exists but its file does not', async () => {
    const seeded = await t.db.prisma.kycDocument.create({
      data: { investorId: demoInvestorId, documentType: 'OTHER', storageKey: `kyc/${randomUUID()}`, mimeType: 'application/pdf', sizeBytes: 1, checksum: 'x'.repeat(64) },
    });
    expect(await t.services.kyc.storage.exists(seeded.storageKey)).toBe(false);
    expect((await t.http.get(`/api/v1/kyc/documents/${seeded.id}/download`).set('authorization', `Bearer ${investor}`)).status).toBe(404);
  });
});

async function uploadedBy(token: string) {
  const res = await upload(token, 'passport', { bytes: png(), name: 'p.png' });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as number };
}

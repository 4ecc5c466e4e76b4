import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Response } from 'superagent';
import type { AuthUser } from '../src/domain/auth-user';
import type { Prisma } from '../src/db/database';
import { Role } from '../src/generated/prisma/enums';
import { keyId } from '../src/services/signing-keys';
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

const storedFiles = async () =>
  (await readdir(storageDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

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
type Uploaded = { uploadKycDocument: { id: number; investorId: number; documentType: string; status: string; mimeType: string; sizeBytes: number } };
/** A GraphQL multipart request (the spec's operations, map, then the file), with Apollo's CSRF preflight header. */
const gqlUploadRequest = (token: string | null, bytes: Buffer, documentType = 'PASSPORT') => {
  const req = t.http.post('/graphql').set('apollo-require-preflight', 'true');
  if (token) req.set('authorization', `Bearer ${token}`);
  return req
    .field('operations', JSON.stringify({ query: UPLOAD, variables: { input: { documentType, file: null } } }))
    .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
    .attach('0', bytes, { filename: 'scan.bin', contentType: 'application/octet-stream' });
};
const gqlUpload = async (token: string, bytes: Buffer, documentType = 'PASSPORT') =>
  (await gqlUploadRequest(token, bytes, documentType)).body as { data?: Uploaded; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
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
      investorId: demoInvestorId,
      documentType: 'PROOF_OF_ADDRESS',
      status: 'PENDING',
      mimeType: 'application/pdf',
      sizeBytes: bytes.length,
      checksum: createHash('sha256').update(bytes).digest('hex'),
      rejectionReason: null,
      reviewedAt: null,
    });
    expect(row.storageKey).toMatch(/^kyc\/[0-9a-f-]{36}$/);
    expect(res.body.data).toMatchObject({
      id: row.id,
      document_type: 'proof_of_address',
      status: 'pending',
      mime_type: 'application/pdf',
      size_bytes: bytes.length,
    });
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
      [
        upload(investor, 'passport', { bytes: Buffer.from('just some text, not a %PDF-'), name: 'passport.pdf', type: 'application/pdf' }),
        { file: [NOT_A_DOCUMENT] },
      ],
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

describe('hostile multipart bodies on POST /api/v1/kyc/documents', () => {
  const raw = (body: Buffer | string, contentType: string, token = investor) =>
    t.http
      .post('/api/v1/kyc/documents')
      .set({ authorization: `Bearer ${token}`, 'content-type': contentType })
      .send(Buffer.from(body));
  const part = (name: string, value: string, filename?: string) =>
    `--x\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${value}\r\n`;

  it('answers a body cut before its closing boundary with 400 and stays up (issue 7, finding 1)', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    // The report, verbatim: no document_type, so the 422 for it answers before the file is read.
    const verbatim = await raw('--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 abc', 'multipart/form-data; boundary=x');
    expect(verbatim.status).toBe(422);
    expect(verbatim.body).toEqual({
      success: false,
      message: 'The document type field is required.',
      errors: { document_type: ['The document type field is required.'] },
    });
    const bodies = [
      `${part('document_type', 'passport')}--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 ${'y'.repeat(4096)}`,
      `${part('document_type', 'passport')}--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n`, // headers never end
    ];
    for (const body of bodies) {
      const res = await raw(body, 'multipart/form-data; boundary=x');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Malformed multipart body.' });
    }
    expect((await t.http.get('/healthz')).status).toBe(200);
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('answers a missing or wrong boundary with 400 and another content type with 415', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const body = `${part('document_type', 'passport')}${part('file', '%PDF-1.4 abc', 'a.pdf')}--x--\r\n`;
    for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=nope']) {
      const res = await raw(body, contentType);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Malformed multipart body.' });
    }
    for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/pdf']) {
      const res = await raw(contentType === 'application/json' ? '{"document_type":"passport"}' : 'document_type=passport', contentType);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ success: false, message: 'Unsupported media type.' });
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('stores only the first `file` part: extra files are drained, never stored', async () => {
    const files = await storedFiles();
    const [first, second, other] = [pdf(), png(), jpeg()];
    const res = await t.http
      .post('/api/v1/kyc/documents')
      .set('authorization', `Bearer ${investor}`)
      .field('document_type', 'passport')
      .attach('file', first, 'first.pdf')
      .attach('file', second, 'second.png')
      .attach('photo', other, 'photo.jpg');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mime_type: 'application/pdf', size_bytes: first.length });
    const added = (await storedFiles()).filter((f) => !files.includes(f));
    expect(added).toHaveLength(1);
    const row = await t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(await readAll(await t.services.kyc.storage.get(row.storageKey))).toEqual(first);
  });

  it('refuses a request declared larger than the file limit plus the body limit with 413, before reading it', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const res = await upload(investor, 'passport', { bytes: pdf(MAX_BYTES + 1024 * 1024 + 1), name: 'huge.pdf' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, message: 'Payload too large.' });
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('leaves no partial file and no row when the client aborts mid-upload', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const storage = t.services.kyc.storage;
    const put = storage.put.bind(storage);
    // Wrapped in an object: resolving with the write's promise itself would wait for the write.
    let writing!: (w: { done: Promise<void> }) => void;
    const started = new Promise<{ done: Promise<void> }>((resolve) => (writing = resolve));
    const spy = jest.spyOn(storage, 'put').mockImplementationOnce((key, content) => {
      const done = put(key, content);
      writing({ done });
      return done;
    });
    await new Promise<void>((resolve) => t.gateway.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = t.gateway.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      const head = `${part('document_type', 'passport')}--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n`;
      socket.write(
        `POST /api/v1/kyc/documents HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${investor}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${MAX_BYTES}\r\n\r\n${head}`,
      );
      socket.write(pdf(8 * 1024));
      const write = await started; // the file is on its way to storage…
      socket.destroy(); // …when the client goes away
      await expect(write.done).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    } finally {
      spy.mockRestore();
      await new Promise((resolve) => t.gateway.server.close(resolve));
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });
});

describe('GraphQL uploadKycDocument (multipart request spec)', () => {
  it('streams the Upload to storage and applies the same rules as REST', async () => {
    const bytes = png();
    const res = await gqlUpload(investor, bytes);
    expect(res.errors).toBeUndefined();
    const doc = res.data!.uploadKycDocument;
    expect(doc).toMatchObject({ investorId: demoInvestorId, documentType: 'PASSPORT', status: 'PENDING', mimeType: 'image/png', sizeBytes: bytes.length });
    const row = await t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id: doc.id } });
    expect(row.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await readAll(await t.services.kyc.storage.get(row.storageKey))).toEqual(bytes);

    const atLimit = await gqlUpload(investor, jpeg(MAX_BYTES));
    expect(atLimit.data?.uploadKycDocument.sizeBytes).toBe(MAX_BYTES);

    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const refusals: Array<[Buffer, string]> = [
      [Buffer.from('plain text'), NOT_A_DOCUMENT],
      [Buffer.alloc(0), 'The file field is required.'],
      [jpeg(MAX_BYTES + 1), TOO_BIG],
    ];
    for (const [content, message] of refusals) {
      expect((await gqlUpload(investor, content)).errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { file: [message] } });
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('authenticates before reading the body: a guest or a bad token is UNAUTHENTICATED and nothing reaches storage', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const put = jest.spyOn(t.services.kyc.storage, 'put');
    try {
      for (const token of [null, 'not-a-token', `${investor.slice(0, -4)}AAAA`]) {
        const res = await gqlUploadRequest(token, pdf(MAX_BYTES));
        expect(res.status).toBe(401);
        expect(res.body.errors[0]).toMatchObject({ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED' } });
      }
      expect(put).not.toHaveBeenCalled();
    } finally {
      put.mockRestore();
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('needs the CSRF preflight header, refuses staff, and takes no base64 in JSON any more', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const noPreflight = await t.http
      .post('/graphql')
      .set('authorization', `Bearer ${investor}`)
      .field('operations', JSON.stringify({ query: UPLOAD, variables: { input: { documentType: 'PASSPORT', file: null } } }))
      .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
      .attach('0', pdf(), 'a.pdf');
    expect(noPreflight.status).toBe(400);
    expect(noPreflight.body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
    expect((await gqlUpload(analyst, pdf())).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const inline = await t.gql(UPLOAD, { input: { documentType: 'PASSPORT', file: { fileName: 'a.pdf', contentBase64: pdf().toString('base64') } } }, investor);
    expect(inline.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(inline.errors?.[0].message).toMatch(/Upload value invalid/);
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('answers a malformed multipart request with a 4xx and keeps serving', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const operations = JSON.stringify({ query: UPLOAD, variables: { input: { documentType: 'PASSPORT', file: null } } });
    const truncated = Buffer.from(
      `--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n` +
        `--x\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.input.file"]}\r\n` +
        `--x\r\nContent-Disposition: form-data; name="0"; filename="a.pdf"\r\n\r\n%PDF-1.4 abc`,
    );
    const res = await t.http
      .post('/graphql')
      .set({ authorization: `Bearer ${investor}`, 'apollo-require-preflight': 'true', 'content-type': 'multipart/form-data; boundary=x' })
      .send(truncated);
    expect(res.body.errors[0]).toMatchObject({ message: 'Malformed multipart body.', extensions: { code: 'BAD_REQUEST' } });
    const noBoundary = await t.http
      .post('/graphql')
      .set({ authorization: `Bearer ${investor}`, 'apollo-require-preflight': 'true', 'content-type': 'multipart/form-data' })
      .send(truncated);
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.errors[0]).toMatchObject({ message: 'Malformed multipart body.', extensions: { code: 'BAD_REQUEST' } });
    expect((await t.http.get('/healthz')).status).toBe(200);
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });
});

describe('malformed part headers on both faces (issue 22, finding 1)', () => {
  const operations = JSON.stringify({ query: UPLOAD, variables: { input: { documentType: 'PASSPORT', file: null } } });
  const field = (name: string, value: string) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  /** File part headers busboy cannot parse: a bare LF or a NUL in the file name, a header line over 16 KiB. */
  const badHeaders = [
    'Content-Disposition: form-data; name="NAME"; filename="a\nb.pdf"',
    'Content-Disposition: form-data; name="NAME"; filename="a\u0000b.pdf"',
    `Content-Disposition: form-data; name="NAME"; filename="${'a'.repeat(17 * 1024)}.pdf"`,
  ];
  const filePart = (header: string, name: string) => `--x\r\n${header.replace('NAME', name)}\r\n\r\n%PDF-1.4 abc\r\n--x--\r\n`;

  it('answers GraphQL 400 BAD_REQUEST, keeps serving and writes nothing', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    for (const header of badHeaders) {
      const res = await t.http
        .post('/graphql')
        .set({ authorization: `Bearer ${investor}`, 'apollo-require-preflight': 'true', 'content-type': 'multipart/form-data; boundary=x' })
        .send(Buffer.from(`${field('operations', operations)}${field('map', '{"0":["variables.input.file"]}')}${filePart(header, '0')}`, 'latin1'));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: [{ message: 'Malformed multipart body.', extensions: { code: 'BAD_REQUEST' } }] });
      expect((await t.http.get('/healthz')).status).toBe(200);
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('bounds the JSON of `operations` and `map` like any body: 65 levels is 400 before it is parsed (issue 22, finding 8)', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    const nested = JSON.stringify({ query: UPLOAD, variables: { input: { documentType: 'PASSPORT', file: null } }, extensions: { x: 'DEEP' } }).replace(
      '"DEEP"',
      deep,
    );
    for (const [ops, map] of [
      [nested, '{"0":["variables.input.file"]}'],
      [operations, `{"0":["variables.input.file"],"1":${deep}}`],
    ]) {
      const res = await t.http
        .post('/graphql')
        .set({ authorization: `Bearer ${investor}`, 'apollo-require-preflight': 'true', 'content-type': 'multipart/form-data; boundary=x' })
        .send(Buffer.from(`${field('operations', ops)}${field('map', map)}${filePart('Content-Disposition: form-data; name="NAME"; filename="a.pdf"', '0')}`));
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ message: 'JSON nested deeper than 64 levels.', extensions: { code: 'BAD_REQUEST' } });
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('answers REST 400 in the envelope, keeps serving and writes nothing', async () => {
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    for (const header of badHeaders) {
      const res = await t.http
        .post('/api/v1/kyc/documents')
        .set({ authorization: `Bearer ${investor}`, 'content-type': 'multipart/form-data; boundary=x' })
        .send(Buffer.from(`${field('document_type', 'passport')}${filePart(header, 'file')}`, 'latin1'));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Malformed multipart body.' });
      expect((await t.http.get('/healthz')).status).toBe(200);
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });
});

describe.each([
  ['REST', (key: string, bytes: Buffer) => upload(investor, 'passport', { bytes, name: 'passport.pdf', type: 'application/pdf' }).set('idempotency-key', key)],
  ['GraphQL', (key: string, bytes: Buffer) => gqlUploadRequest(investor, bytes).set('idempotency-key', key)],
] as const)('Idempotency-Key on uploads covers the file (%s; issue 22, finding 7)', (face, send) => {
  const docId = (res: Response) => (face === 'REST' ? res.body.data.id : res.body.data.uploadKycDocument.id) as number;

  it('refuses the same key with the same fields but other bytes (422 on the key) and stores nothing more', async () => {
    const key = randomUUID();
    const first = await send(key, pdf());
    expect(first.status).toBe(face === 'REST' ? 201 : 200);
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const other = await send(key, pdf());
    expect(other.status).toBe(422);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    if (face === 'REST') expect(other.body).toEqual({ success: false, message: expect.any(String), errors: { idempotency_key: [expect.any(String)] } });
    else expect(other.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { idempotencyKey: [expect.any(String)] } });
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('replays a retry with the same bytes byte for byte, storing the file once', async () => {
    const key = randomUUID();
    const bytes = png(48 * 1024);
    const first = await send(key, bytes);
    const [rows, files] = [await t.db.prisma.kycDocument.count(), await storedFiles()];
    const retry = await send(key, bytes);
    expect(retry.status).toBe(first.status);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    expect(docId(retry)).toBe(docId(first));
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('fingerprints a refused file too: the same refusal replays, other bytes are 422', async () => {
    const key = randomUUID();
    const text = Buffer.from('not a document');
    const first = await send(key, text);
    const retry = await send(key, text);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    const other = await send(key, Buffer.from('not a document either'));
    expect(other.status).toBe(422);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.text).not.toBe(first.text);
    expect(other.text).toMatch(/idempotency/i);
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
      list: (prefix) => storage.list(prefix),
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
    const service = new KycService(failing, new DownloadService({ current: 'test-secret' }, async () => null), recording, MAX_BYTES);
    const user: AuthUser = { id: 0, role: Role.INVESTOR, investorId: demoInvestorId, sessionId: 'test' };
    const file = { filename: 'a.pdf', createReadStream: () => Readable.from([pdf()]) };
    await expect(service.upload(user, { documentType: 'PASSPORT', file })).rejects.toThrow('insert failed');
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

  it('is 404 for a tampered, cut or expired link; the token shows neither role nor session', async () => {
    const { id, bytes } = await uploaded();
    const url = (await t.gql<{ kycDocumentDownload: { url: string } }>(DOWNLOAD, { id }, investor)).data!.kycDocumentDownload.url;
    const token = url.split('/').pop()!;
    // Compact JWE (dir, A256GCM): only the header is readable — the algorithms and the secret's key id.
    const parts = token.split('.');
    expect(parts).toHaveLength(5);
    expect(JSON.parse(Buffer.from(parts[0], 'base64url').toString())).toEqual({ alg: 'dir', enc: 'A256GCM', kid: keyId(t.config.jwtSecret) });
    const session = (await t.db.prisma.session.findMany({ where: { user: { email: DEMO_EMAILS.investor } }, select: { id: true } })).map((x) => x.id);
    for (const part of parts.slice(1)) {
      const clear = Buffer.from(part, 'base64url').toString('latin1');
      expect(clear).not.toMatch(/INVESTOR|investor|"sid"|"u"/);
      for (const sid of session) expect(clear).not.toContain(sid);
    }
    // The first character: the last one of a base64url part may carry only padding bits.
    const flip = (p: string) => `${p.startsWith('A') ? 'B' : 'A'}${p.slice(1)}`;
    for (const bad of [
      parts.map((p, i) => (i === 3 ? flip(p) : p)).join('.'),
      parts.map((p, i) => (i === 4 ? flip(p) : p)).join('.'),
      parts.slice(0, 4).join('.'),
      'x',
      '',
    ]) {
      expect((await t.http.get(`/api/v1/downloads/${bad}`)).status).toBe(404);
    }
    await expect(t.services.downloads.openToken(token, new Date(Date.now() + 3600_000))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const file = await t.services.downloads.openToken(token);
    expect(Buffer.compare(await readAll(file.stream), bytes)).toBe(0);
  });

  it('refuses a link forged with the old default secret (the payload naming any user and role)', async () => {
    const { id } = await uploaded();
    const claims = {
      k: 'kyc-document',
      p: { id },
      u: { id: 1, role: 'ADMIN', investorId: null, sessionId: randomUUID() },
      e: Math.floor(Date.now() / 1000) + 300,
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const signature = createHmac('sha256', 'dev-only-insecure-secret-change-me').update(`download:${payload}`).digest('base64url');
    const res = await t.http.get(`/api/v1/downloads/${payload}.${signature}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Resource not found.' });
    // A link made under another secret (another deployment, a rotated JWT_SECRET) opens nothing either.
    const other = new DownloadService({ current: 'another-secret-of-at-least-32-characters' }, (sid) => t.services.auth.sessionUser(sid));
    const user = await t.services.auth.authenticate(investor);
    const foreign = await other.url(other.link(user!, 'kyc-document', { id }, 'x.pdf', 'application/pdf'));
    expect((await t.http.get(foreign)).status).toBe(404);
  });

  it('dies with its session: logout, password reset and account deletion', async () => {
    const fetchLink = async (token: string, docId: number) =>
      (await t.gql<{ kycDocumentDownload: { url: string } }>(DOWNLOAD, { id: docId }, token)).data!.kycDocumentDownload.url;
    const email = `kyc-link-${randomUUID()}@example.com`;
    await t.http.post('/api/v1/auth/register').send({ name: 'Link Holder', email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD });
    const [first, second] = [await t.token(email), await t.token(email)];
    const { id } = await uploadedBy(first);

    // Logout ends this session's links only.
    const [mine, theirs] = [await fetchLink(first, id), await fetchLink(second, id)];
    expect((await fetchFile(mine)).status).toBe(200);
    expect((await t.http.post('/api/v1/auth/logout').set('authorization', `Bearer ${first}`)).status).toBe(200);
    expect((await t.http.get(mine)).status).toBe(404);
    expect((await fetchFile(theirs)).status).toBe(200);

    // A password reset ends every session, and with them every link.
    const mailed = jest.spyOn(t.services.mailer, 'send');
    try {
      await t.http.post('/api/v1/auth/password/forgot').send({ email });
      const resetToken = /Token: (\S+)/.exec(mailed.mock.calls[0][0].text)![1];
      const reset = await t.http
        .post('/api/v1/auth/password/reset')
        .send({ email, token: resetToken, password: 'N3w-password!', password_confirmation: 'N3w-password!' });
      expect(reset.status).toBe(200);
    } finally {
      mailed.mockRestore();
    }
    expect((await t.http.get(theirs)).status).toBe(404);

    // Deleting the account ends the links of the session that asked for the deletion too.
    const third = await t.token(email, 'N3w-password!');
    const last = await fetchLink(third, id);
    expect((await fetchFile(last)).status).toBe(200);
    expect((await t.http.delete('/api/v1/auth/me').set('authorization', `Bearer ${third}`).send({ password: 'N3w-password!' })).status).toBe(200);
    expect((await t.http.get(last)).status).toBe(404);
  });

  it('is 404 when the document exists but its file does not', async () => {
    const seeded = await t.db.prisma.kycDocument.create({
      data: {
        investorId: demoInvestorId,
        documentType: 'OTHER',
        storageKey: `kyc/${randomUUID()}`,
        mimeType: 'application/pdf',
        sizeBytes: 1,
        checksum: 'x'.repeat(64),
      },
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

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { runVerify } from '../scripts/audit-verify';
import type { S3StorageOptions } from '../src/platform/config';
import { audit } from '../src/services/audit.service';
import { keyring } from '../src/services/audit-checkpoints';
import { S3FileStorage } from '../src/services/storage/s3-file-storage';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * S3 with only what it needs (docs/operations.md "S3 permissions and encryption"): every write asks
 * for S3_SSE's server-side encryption, the audit checkpoints go in under Object Lock, and the gateway
 * uses exactly the S3 actions the documentation lists. Seen on the wire, between the gateway and a
 * real S3-protocol server (s3rver), by a recording HTTP proxy.
 */
const BUCKET = 'kyc-files';
/** Over S3's 5 MB part size, so a refusal can come after a part is already uploaded. */
const MAX_BYTES = 7 * 1024 * 1024;
let s3: S3rver;
let s3Dir: string;
let proxy: http.Server;
let endpoint: string;
let t: TestGateway;
const keys = generateKeyPairSync('ed25519');

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}
const seen: Seen[] = [];

beforeAll(async () => {
  s3Dir = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = (await s3.run()) as AddressInfo;
  // Forwards each request as it came (the Host header included, so its signature still holds) and records it.
  proxy = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  t = await startTestGateway({
    STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    UPLOAD_MAX_BYTES: String(MAX_BYTES),
    S3_SSE: 'aws:kms',
    S3_SSE_KMS_KEY_ID: 'alias/kyc-documents',
    AUDIT_SIGNING_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    AUDIT_CHECKPOINT_RETENTION_DAYS: '30',
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await s3?.close();
  await rm(s3Dir, { recursive: true, force: true });
});

const upload = (bytes: Buffer, token: string) =>
  t.http.post('/api/v1/kyc/documents').set('authorization', `Bearer ${token}`).field('document_type', 'passport').attach('file', bytes, 'scan.pdf');
const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size)]);

/** The request's S3 operation, from its method and query (path-style: /bucket/key?…). */
function operation({ method, url }: Seen): string {
  const query = new URL(url, 'http://s3').searchParams;
  if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'POST' && query.has('uploadId')) return 'CompleteMultipartUpload';
  if (method === 'PUT' && query.has('partNumber')) return 'UploadPart';
  if (method === 'DELETE' && query.has('uploadId')) return 'AbortMultipartUpload';
  if (method === 'GET' && query.get('list-type') === '2') return 'ListObjectsV2';
  if (method === 'HEAD') return 'HeadObject';
  return query.get('x-id') ?? `${method} ${url}`;
}

/** The IAM permission each operation needs (docs/operations.md lists them). */
const PERMISSION: Record<string, string> = {
  PutObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  AbortMultipartUpload: 's3:AbortMultipartUpload',
  GetObject: 's3:GetObject',
  HeadObject: 's3:GetObject',
  DeleteObject: 's3:DeleteObject',
  ListObjectsV2: 's3:ListBucket',
};

describe('S3_SSE and Object Lock on the wire', () => {
  it('every write the gateway makes asks for S3_SSE (KYC uploads small and multipart, audit checkpoints); checkpoints go in under Object Lock', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    seen.length = 0;
    for (const size of [4096, 6 * 1024 * 1024]) expect((await upload(pdf(size), token)).status).toBe(201);
    await audit.record(t.db.prisma, { action: 'test.recorded', actor: null });
    const checkpoint = await t.services.audit.checkpoint();
    expect(checkpoint).not.toBeNull();

    const writes = seen.filter((r) => ['PutObject', 'CreateMultipartUpload'].includes(operation(r)));
    expect(writes.map(operation).sort()).toEqual(['CreateMultipartUpload', 'PutObject', 'PutObject']);
    for (const write of writes) {
      expect(write.headers).toMatchObject({
        'x-amz-server-side-encryption': 'aws:kms',
        'x-amz-server-side-encryption-aws-kms-key-id': 'alias/kyc-documents',
      });
    }
    // The parts and the completion of a multipart upload carry no SSE header: they inherit the upload's (S3 refuses it on them).
    expect(
      seen
        .filter((r) => ['PUT', 'POST'].includes(r.method))
        .every((r) => writes.includes(r) || ['UploadPart', 'CompleteMultipartUpload'].includes(operation(r))),
    ).toBe(true);

    const locked = writes.filter((r) => r.url.includes('/audit-checkpoints/'));
    expect(locked).toHaveLength(1);
    const retainUntil = Date.parse(String(locked[0].headers['x-amz-object-lock-retain-until-date']));
    expect(locked[0].headers).toMatchObject({ 'x-amz-object-lock-mode': 'COMPLIANCE', 'content-md5': expect.any(String) });
    expect(retainUntil - Date.now()).toBeGreaterThan(29 * 86_400_000);
    // KYC objects are not locked: a failed insert removes its file again.
    expect(writes.filter((r) => !locked.includes(r)).every((r) => !('x-amz-object-lock-mode' in r.headers))).toBe(true);
  });

  it('AES256: the one header, on a direct write', async () => {
    seen.length = 0;
    const options = { ...(t.config.storage as { s3: S3StorageOptions }).s3, sse: { algorithm: 'AES256' as const } };
    await new S3FileStorage(options).put('kyc/aes256', Buffer.from('x'));
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['x-amz-server-side-encryption']).toBe('AES256');
    expect(seen[0].headers).not.toHaveProperty('x-amz-server-side-encryption-aws-kms-key-id');
  });

  it('the auditor reads the checkpoints from the bucket with list and get only, and the chain verifies against them', async () => {
    seen.length = 0;
    const out: string[] = [];
    const storage = new S3FileStorage((t.config.storage as { s3: S3StorageOptions }).s3);
    const code = await runVerify(t.services.audit, (line) => out.push(line), { seal: false, checkpoints: { storage, keys: keyring([keys.publicKey]) } });
    expect(out.join('\n')).toMatch(/matches 1 signed checkpoints/);
    expect(code).toBe(0);
    expect([...new Set(seen.map(operation))].sort()).toEqual(['GetObject', 'ListObjectsV2']);
  });

  it('uses exactly the S3 actions docs/operations.md lists', async () => {
    const token = await t.token(DEMO_EMAILS.investor);
    seen.length = 0;
    const res = await upload(pdf(2048), token);
    const file = await t.http.get(`/api/v1/kyc/documents/${res.body.data.id}/download`).set('authorization', `Bearer ${token}`);
    expect(file.status).toBe(200);
    const storage = t.services.kyc.storage;
    expect(await storage.exists('kyc/no-such-object')).toBe(false);
    await storage.delete('kyc/aes256');
    // Refused after a first part went up: the multipart upload is aborted.
    const big = await upload(pdf(MAX_BYTES), token);
    expect(big.status).toBe(422);
    const used = new Set(seen.map((r) => PERMISSION[operation(r)] ?? operation(r)));
    const docs = await readFile(path.join(__dirname, '..', 'docs', 'operations.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### S3 permissions and encryption'));
    for (const permission of used) expect(section).toContain(`\`${permission}\``);
    expect([...used].sort()).toEqual(['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:GetObject', 's3:PutObject']);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { Response } from 'superagent';
import type { S3StorageOptions } from '../src/platform/config';
import { S3FileStorage } from '../src/services/storage/s3-file-storage';
import { FaultProxy } from './support/fault-proxy';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * STORAGE=s3 against a real S3-protocol server (s3rver, on loopback, a random port and a temporary
 * directory), never a mock of the client: uploads and downloads go through the gateway.
 */
const BUCKET = 'kyc-files';
/** Over S3's 5 MB part size, so a refusal can come after a part is already uploaded. */
const MAX_BYTES = 7 * 1024 * 1024;
let s3: S3rver;
let s3Dir: string;
let endpoint: string;
let t: TestGateway;
let investor: string;

beforeAll(async () => {
  s3Dir = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = (await s3.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${port}`;
  t = await startTestGateway({
    STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    UPLOAD_MAX_BYTES: String(MAX_BYTES),
  });
  investor = await t.token(DEMO_EMAILS.investor);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  await rm(s3Dir, { recursive: true, force: true });
});

const binary = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};
const upload = (bytes: Buffer, g = t, token = investor) =>
  g.http.post('/api/v1/kyc/documents').set('authorization', `Bearer ${token}`).field('document_type', 'passport').attach('file', bytes, 'scan.pdf');
/** The bucket's objects, as S3 lists them (parts of an abandoned multipart upload are no object). */
const objects = async () => {
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  try {
    return (await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).KeyCount ?? 0;
  } finally {
    client.destroy();
  }
};

const s3Options = (g: TestGateway) => (g.config.storage as { s3: S3StorageOptions }).s3;

describe('STORAGE=s3', () => {
  it('streams an upload into the bucket and back out, byte for byte (small: one PUT; over 5 MB: a multipart upload)', async () => {
    for (const size of [4096, 6 * 1024 * 1024 + 123]) {
      const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
      const res = await upload(bytes);
      expect(res.status).toBe(201);
      const row = await t.db.prisma.kycDocument.findUniqueOrThrow({ where: { id: res.body.data.id } });
      expect(await t.services.kyc.storage.exists(row.storageKey)).toBe(true);
      const file = await t.http.get(`/api/v1/kyc/documents/${row.id}/download`).set('authorization', `Bearer ${investor}`).buffer(true).parse(binary);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
    }
  });

  it('stores no object for a refused upload and answers 404 for a missing object', async () => {
    const [rows, stored] = [await t.db.prisma.kycDocument.count(), await objects()];
    const wrongType = await upload(Buffer.concat([Buffer.from('GIF89a'), randomBytes(6 * 1024 * 1024)]));
    expect(wrongType.status).toBe(422);
    // Refused past the limit, after a first part went up: the multipart upload is abandoned, the answer still 422.
    const tooBig = await upload(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(MAX_BYTES)]));
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors).toEqual({ file: ['The file field must not be greater than 7168 kilobytes.'] });
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
    expect(await objects()).toBe(stored);
    await expect(t.services.kyc.storage.get('kyc/no-such-object')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 503 when the bucket is missing, leaving no row behind', async () => {
    const kyc = t.services.kyc as unknown as { storage: S3FileStorage };
    const configured = kyc.storage;
    kyc.storage = new S3FileStorage({ ...s3Options(t), bucket: 'no-such-bucket' });
    const rows = await t.db.prisma.kycDocument.count();
    try {
      const res = await upload(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2048)]));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ success: false, message: 'Service temporarily unavailable.' });
    } finally {
      kyc.storage = configured;
    }
    expect(await t.db.prisma.kycDocument.count()).toBe(rows);
  });
});

/**
 * A store that accepts connections and then says nothing (issue 22, finding 13): the SDK set no
 * timeout, so a request waited as long as the store stayed silent. With S3_*_TIMEOUT_MS (small here)
 * the upload and the download answer 503 in the contract's format and nothing is stored.
 */
describe('STORAGE=s3 with the store silent', () => {
  let proxy: FaultProxy;
  let g: TestGateway;
  let token: string;

  beforeAll(async () => {
    const started = await FaultProxy.start(endpoint);
    proxy = started.proxy;
    g = await startTestGateway({
      STORAGE: 's3',
      S3_ENDPOINT: started.url.replace(/\/$/, ''),
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      S3_CONNECT_TIMEOUT_MS: '300',
      S3_SOCKET_TIMEOUT_MS: '300',
      S3_REQUEST_TIMEOUT_MS: '1000',
    });
    token = await g.token(DEMO_EMAILS.investor);
  });
  afterAll(async () => {
    proxy.restore();
    await g?.close();
    await proxy?.close();
  });

  it('answers 503 for an upload and a download, stores no object and no row, and serves again once the store answers', async () => {
    const pdf = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4096)]);
    const stored = await upload(pdf(), g, token);
    expect(stored.status).toBe(201);
    const [rows, objectsBefore] = [await g.db.prisma.kycDocument.count(), await objects()];

    proxy.blackhole();
    const unavailable = { success: false, message: 'Service temporarily unavailable.' };
    const refused = await upload(pdf(), g, token);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 503, body: unavailable });
    const download = await g.http.get(`/api/v1/kyc/documents/${stored.body.data.id}/download`).set('authorization', `Bearer ${token}`);
    expect({ status: download.status, body: download.body }).toEqual({ status: 503, body: unavailable });

    proxy.restore();
    expect(await g.db.prisma.kycDocument.count()).toBe(rows);
    expect(await objects()).toBe(objectsBefore);
    expect((await upload(pdf(), g, token)).status).toBe(201);
  });
});

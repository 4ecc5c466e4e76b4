import { execFile } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { parseArgs, runVerify } from '../scripts/audit-verify';
import { loadConfig } from '../src/platform/config';
import { fromRoot } from '../src/platform/paths';
import { AuditService, audit, chainHash, type VerifyOptions } from '../src/services/audit.service';
import { CHECKPOINT_PREFIX, checkpointKey, keyIdOf, keyring } from '../src/services/audit-checkpoints';
import type { FileStorage } from '../src/services/storage/file-storage';
import { LocalFileStorage } from '../src/services/storage/local-file-storage';
import { startTestGateway, type TestGateway } from './support/harness';

/**
 * Signed audit checkpoints (docs/audit.md "Checkpoints"): the chain's head signed with an Ed25519 key
 * the database never holds, written to the file store; audit:verify with the public key alone finds
 * a history a database owner rewrote and re-sealed, which the hash chain by itself cannot.
 */
const ed25519 = () => generateKeyPairSync('ed25519');
const keyA = ed25519();
const keyB = ed25519();
const pem = (k: KeyObject) => k.export({ type: k.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }).toString();

let t: TestGateway;
/** PostgreSQL runs: the test database's own URL (for the auditor's read-only role). */
let databaseUrl: string | undefined;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let dir: string;
let storageDir: string;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'audit-checkpoints-'));
  storageDir = path.join(dir, 'files');
  t = await startTestGateway({ STORAGE_DIR: storageDir, AUDIT_SIGNING_KEY: pem(keyA.privateKey) }, { databaseUrl: (url) => (databaseUrl = url) });
  // The service's log, captured (the checkpoints go to it as well as to the store).
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  (t.services.audit as unknown as { checkpoints: { logger: unknown } }).checkpoints.logger = logger;
});
afterAll(async () => {
  if (onPostgres && databaseUrl) {
    await t.sqlAs('superuser', `DROP OWNED BY ${auditor.role}`).catch(() => undefined);
    await t.sqlAs('superuser', `DROP ROLE IF EXISTS ${auditor.role}`);
  }
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** `n` events recorded as a script would. */
async function record(n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await audit.record(t.db.prisma, { action: 'test.recorded', actor: null, target: { type: 'test', id: i }, changes: { after: { n: i } } });
}

/** A second sealer of the same database with another signing key (a rotated gateway). */
const signerWith = (signingKey: KeyObject) => new AuditService(t.db.prisma, t.services.downloads, { storage: t.services.kyc.storage, signingKey });

/** The auditor's run: public keys and the store only, nothing written (no sealing). */
async function auditorVerify(publicKeys: KeyObject[], store = storageDir) {
  const out: string[] = [];
  const options: VerifyOptions = { seal: false, checkpoints: { storage: new LocalFileStorage(store), keys: keyring(publicKeys) } };
  const code = await runVerify(t.services.audit, (line) => out.push(line), options);
  return { code, text: out.join('\n') };
}
/** Today's verify: the chain alone. */
async function chainOnlyVerify() {
  const out: string[] = [];
  const code = await runVerify(t.services.audit, (line) => out.push(line));
  return { code, text: out.join('\n') };
}

/** As a database superuser could: triggers off, in one transaction. */
const asSuperuser = (...statements: string[]) => t.sqlAs('superuser', 'SET LOCAL session_replication_role = replica', ...statements);

describe('signing checkpoints', () => {
  it('signs the sealed head into audit-checkpoints/<seq> and the log; the chain then verifies against it with the public key alone', async () => {
    await record(5);
    const checkpoint = await t.services.audit.checkpoint();
    expect(checkpoint).not.toBeNull();
    const head = await t.db.prisma.auditSeal.findFirstOrThrow({ orderBy: { seq: 'desc' } });
    expect(checkpoint).toMatchObject({ seq: head.seq.toString(), eventId: head.eventId.toString(), hash: head.hash, keyId: keyIdOf(keyA.publicKey) });
    const stored = JSON.parse(await readFile(path.join(storageDir, ...checkpointKey(head.seq).split('/')), 'utf8'));
    expect(stored).toEqual(checkpoint);
    expect(logged.find((l) => l.msg === 'audit checkpoint signed')).toMatchObject({ auditCheckpoint: checkpoint });

    await record(2);
    await t.services.audit.seal();
    const result = await auditorVerify([keyA.publicKey]);
    expect(result.code).toBe(0);
    expect(result.text).toContain(`matches 1 signed checkpoints, the newest #${head.seq}`);
    // What a checkpoint cannot cover: the events after the newest one.
    expect(result.text).toContain('2 events after the newest are not covered by a checkpoint yet');
  });

  it('without a signing key the gateway writes none (and warns at start in production)', async () => {
    const unsigned = new AuditService(t.db.prisma, t.services.downloads, { storage: t.services.kyc.storage });
    expect(await unsigned.checkpoint()).toBeNull();
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    const production = new AuditService(t.db.prisma, t.services.downloads, { storage: t.services.kyc.storage, production: true });
    production.start(60_000, undefined, logger);
    await production.stop();
    expect(warnings).toEqual([expect.stringMatching(/^AUDIT_SIGNING_KEY is not set: no signed audit checkpoints/)]);
  });

  it("the gateway's sealer writes one every AUDIT_CHECKPOINT_INTERVAL_MS", async () => {
    await record(1);
    const signed: unknown[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void signed.push(JSON.parse(line).auditCheckpoint) });
    const sealer = new AuditService(t.db.prisma, t.services.downloads, {
      storage: t.services.kyc.storage,
      signingKey: keyA.privateKey,
      intervalMs: 60_000,
      logger,
    });
    sealer.start(10, undefined, logger);
    try {
      for (const deadline = Date.now() + 5000; !signed.filter(Boolean).length && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await sealer.stop();
    }
    // The first tick signs; the next is due a minute later.
    expect(signed.filter(Boolean)).toHaveLength(1);
  });

  it('a checkpoint the store refuses is logged at error level and sealing goes on', async () => {
    await record(1);
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    // The configured store, except that it refuses every write (as a bucket without Object Lock refuses a locked one).
    const refusing = Object.assign(Object.create(t.services.kyc.storage) as FileStorage, {
      put: () => Promise.reject(new Error('Bucket is missing Object Lock Configuration')),
    });
    const sealer = new AuditService(t.db.prisma, t.services.downloads, { storage: refusing, signingKey: keyA.privateKey, intervalMs: 60_000, logger });
    sealer.start(10, undefined, logger);
    try {
      for (const deadline = Date.now() + 5000; !lines.length && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await sealer.stop();
    }
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[50, 'audit checkpoint failed: the chain is sealed but not signed outside the database']]);
    expect(await t.db.prisma.auditSeal.count()).toBe(await t.db.prisma.auditEvent.count());
  });

  it('rotation: checkpoints signed by the old and the new key verify with both public keys; a key left out is named', async () => {
    await record(2);
    const byB = await signerWith(keyB.privateKey).checkpoint();
    expect(byB?.keyId).toBe(keyIdOf(keyB.publicKey));
    const both = await auditorVerify([keyA.publicKey, keyB.publicKey]);
    expect(both.code).toBe(0);
    expect(both.text).toContain(`matches 3 signed checkpoints, the newest #${byB?.seq} signed ${byB?.at} by key ${byB?.keyId}`);
    const onlyB = await auditorVerify([keyB.publicKey]);
    expect(onlyB.code).toBe(1);
    expect(onlyB.text).toContain(`is signed by key ${keyIdOf(keyA.publicKey)}, which is not among the public keys given`);

    // The gateway's own configuration: AUDIT_SIGNING_KEY signs, AUDIT_SIGNING_KEY_PREVIOUS (public or private, PEM or a file) still verifies.
    const file = path.join(dir, 'previous.pub');
    await writeFile(file, pem(keyA.publicKey));
    const config = loadConfig({ AUDIT_SIGNING_KEY: pem(keyB.privateKey).replace(/\n/g, '\\n'), AUDIT_SIGNING_KEY_PREVIOUS: file });
    expect(keyIdOf(config.auditSigningKey!)).toBe(keyIdOf(keyB.publicKey));
    expect(keyIdOf(config.auditSigningKeyPrevious!)).toBe(keyIdOf(keyA.publicKey));
    expect(config.auditSigningKeyPrevious!.type).toBe('public');
    expect(() => loadConfig({ AUDIT_SIGNING_KEY: pem(keyB.publicKey) })).toThrow(
      /^Invalid configuration: AUDIT_SIGNING_KEY must be an Ed25519 private key in PEM, or the path of a PEM file$/,
    );
    expect(() => loadConfig({ AUDIT_CHECKPOINT_RETENTION_DAYS: '30' })).toThrow(/AUDIT_CHECKPOINT_RETENTION_DAYS needs STORAGE=s3/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => loadConfig({ AUDIT_SIGNING_KEY: pem(rsa) })).toThrow(/AUDIT_SIGNING_KEY must be an Ed25519 private key/);
    expect(parseArgs(['--public-key', 'a.pub', '--public-key', 'b.pub', '--checkpoints', '/copy'])).toEqual({
      publicKeys: ['a.pub', 'b.pub'],
      checkpointsDir: '/copy',
    });
  });

  it('a checkpoint whose signature is missing or does not verify fails the run', async () => {
    const latest = (await new LocalFileStorage(storageDir).list(CHECKPOINT_PREFIX)).at(-1)!;
    const copy = async (edit: (c: Record<string, string>) => void) => {
      const store = await mkdtemp(path.join(dir, 'copy-'));
      await cp(storageDir, store, { recursive: true });
      const file = path.join(store, ...latest.split('/'));
      const c = JSON.parse(await readFile(file, 'utf8'));
      edit(c);
      await writeFile(file, JSON.stringify(c));
      return store;
    };
    const keys = [keyA.publicKey, keyB.publicKey];
    const forged = await auditorVerify(keys, await copy((c) => (c.hash = 'f'.repeat(64))));
    expect(forged.code).toBe(1);
    expect(forged.text).toContain(`checkpoint ${latest} has a signature that does not verify with key ${keyIdOf(keyB.publicKey)}`);
    const unsigned = await auditorVerify(keys, await copy((c) => delete c.signature));
    expect(unsigned.code).toBe(1);
    expect(unsigned.text).toContain(`checkpoint ${latest} has no signature`);
    const empty = await auditorVerify(keys, await mkdtemp(path.join(dir, 'empty-')));
    expect(empty.code).toBe(1);
    expect(empty.text).toContain('no signed checkpoint found under audit-checkpoints/');
    expect((await auditorVerify(keys)).code).toBe(0);
  });
});

/**
 * The auditor's laptop (PostgreSQL only: an embedded PGlite has one user, its owner): the command
 * itself, in a process of its own, with a role that may only SELECT the three audit tables, the
 * public keys in files, the checkpoints from the store, and no gateway secret in its environment.
 */
const auditor = { role: `audit_reader_${process.pid}`, password: 'reader-password' };
async function auditorCommand(publicKeys: KeyObject[], extra: string[] = []) {
  const files = await Promise.all(
    publicKeys.map(async (k, i) => {
      const file = path.join(dir, `auditor-${i}.pub`);
      await writeFile(file, pem(k));
      return file;
    }),
  );
  const url = new URL(databaseUrl!);
  url.username = auditor.role;
  url.password = auditor.password;
  const args = ['-r', fromRoot('scripts/ts-register.cjs'), fromRoot('scripts/audit-verify.ts'), ...files.flatMap((f) => ['--public-key', f]), ...extra];
  const env = { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: url.toString(), STORAGE_DIR: storageDir };
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    execFile(process.execPath, args, { cwd: fromRoot(), env }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code as number) : 0, out: stdout + stderr }),
    );
  });
}

// A role of its own needs a database server (the embedded PGlite has one user): PostgreSQL only.
if (onPostgres) {
  describe('audit:verify --public-key, as an auditor with read-only access', () => {
    beforeAll(async () => {
      const database = new URL(databaseUrl!).pathname.slice(1);
      // The database administrator's work (the gateway's own role may create no role and grant nothing).
      await t.sqlAs(
        'superuser',
        `CREATE ROLE ${auditor.role} LOGIN PASSWORD '${auditor.password}'`,
        `GRANT CONNECT ON DATABASE ${database} TO ${auditor.role}`,
      );
      await t.sqlAs('owner', `GRANT SELECT ON audit_events, audit_seals, audit_anchors TO ${auditor.role}`);
    });

    it('verifies the chain against the checkpoints and writes nothing (the role could not)', async () => {
      const run = await auditorCommand([keyA.publicKey, keyB.publicKey]);
      expect(run.out).toMatch(/^audit trail intact: \d+ events; head #\d+ [0-9a-f]{64}\nmatches \d+ signed checkpoints/);
      expect(run.code).toBe(0);
      await expect(t.db.prisma.$queryRawUnsafe(`SELECT has_table_privilege('${auditor.role}', 'audit_seals', 'INSERT') AS insert`)).resolves.toEqual([
        { insert: false },
      ]);
    });
  });

  describe('a rewritten history', () => {
    it('an event rewritten and every later seal recomputed, as a superuser would: the chain alone still verifies, the checkpoints name it', async () => {
      const first = await t.services.audit.checkpoint();
      await record(4);
      const second = await t.services.audit.checkpoint();
      await record(3);
      await t.services.audit.seal();
      expect((await auditorVerify([keyA.publicKey, keyB.publicKey])).code).toBe(0);

      // The victim: between the two checkpoints.
      const victimSeal = await t.db.prisma.auditSeal.findFirstOrThrow({ where: { seq: BigInt(first!.seq) + 2n } });
      await asSuperuser(`UPDATE audit_events SET changes = '{"after":{"n":999}}'::jsonb WHERE id = ${victimSeal.eventId}`);
      // …and the chain re-sealed from it to the head, with the public algorithm.
      const seals = await t.db.prisma.auditSeal.findMany({ where: { seq: { gte: victimSeal.seq } }, orderBy: { seq: 'asc' } });
      const events = new Map((await t.db.prisma.auditEvent.findMany({ where: { id: { in: seals.map((s) => s.eventId) } } })).map((e) => [e.id, e]));
      let previous = (await t.db.prisma.auditSeal.findFirstOrThrow({ where: { seq: victimSeal.seq - 1n } })).hash;
      const updates = seals.map((s) => {
        previous = chainHash(previous, s.seq, events.get(s.eventId)!);
        return `UPDATE audit_seals SET hash = '${previous}' WHERE seq = ${s.seq}`;
      });
      await asSuperuser(...updates);

      const chainOnly = await chainOnlyVerify();
      expect(chainOnly.code).toBe(0);
      expect(chainOnly.text).toMatch(/^audit trail intact/);

      const checked = await auditorVerify([keyA.publicKey, keyB.publicKey]);
      expect(checked.code).toBe(1);
      if (onPostgres) {
        // The same from the auditor's command, read-only.
        const run = await auditorCommand([keyA.publicKey, keyB.publicKey]);
        expect(run.code).toBe(1);
        expect(run.out.trim()).toBe(checked.text);
      }
      expect(checked.text).toContain(
        `audit trail BROKEN at event ${second!.eventId}: event ${second!.eventId} no longer matches signed checkpoint #${second!.seq} (event ${second!.eventId}, signed ${second!.at} by key ${second!.keyId}): ` +
          `the history up to it was rewritten and its seals recomputed; the change lies after checkpoint #${first!.seq} (event ${first!.eventId}, which still matches)`,
      );
    });

    it('events cut off the end, seals and all: the chain alone verifies, a checkpoint beyond its end does not', async () => {
      const head = await t.db.prisma.auditSeal.findFirstOrThrow({ orderBy: { seq: 'desc' } });
      const last = await t.services.audit.checkpoint();
      expect(last?.seq).toBe(head.seq.toString());
      // A store holding that checkpoint alone (the earlier ones would name the rewrite above first).
      const store = await mkdtemp(path.join(dir, 'last-'));
      await new LocalFileStorage(store).put(checkpointKey(head.seq), await readFile(path.join(storageDir, ...checkpointKey(head.seq).split('/'))));
      await asSuperuser(`DELETE FROM audit_events WHERE id = ${head.eventId}`, `DELETE FROM audit_seals WHERE seq = ${head.seq}`);
      expect((await chainOnlyVerify()).code).toBe(0);
      const checked = await auditorVerify([keyA.publicKey, keyB.publicKey], store);
      expect(checked.code).toBe(1);
      expect(checked.text).toContain(`the chain ends at position ${head.seq - 1n}, but signed checkpoint #${head.seq} (event ${head.eventId}`);
    });
  });

  describe('retention', () => {
    it('checkpoints before the anchor are counted as covering removed events; one on the anchor is checked against its hash', async () => {
      await record(2);
      const store = await mkdtemp(path.join(dir, 'retention-'));
      const signer = new AuditService(t.db.prisma, t.services.downloads, { storage: new LocalFileStorage(store), signingKey: keyA.privateKey });
      const older = await signer.checkpoint();
      await record(1);
      const onAnchor = await signer.checkpoint();
      await t.services.audit.prune(-1);
      const anchor = await t.db.prisma.auditAnchor.findFirstOrThrow({ orderBy: { seq: 'desc' } });
      expect(anchor.seq.toString()).toBe(onAnchor?.seq);
      expect(BigInt(older!.seq)).toBeLessThan(anchor.seq);
      await record(1);
      await t.services.audit.seal();
      const result = await auditorVerify([keyA.publicKey], store);
      expect(result.code).toBe(0);
      expect(result.text).toContain(`matches 1 signed checkpoints, the newest #${onAnchor?.seq}`);
      expect(result.text).toContain('1 older ones cover events removed by retention; 1 events after the newest');
    });
  });
}

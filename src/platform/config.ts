import { readFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import path from 'node:path';
import bytes from 'bytes';
import { z } from 'zod';
import { present as required } from './invariant';

/** STORAGE=s3: where and how the S3 file store (src/services/storage/s3-file-storage.ts) connects. */
export interface S3StorageOptions {
  /** Unset → AWS's own endpoint for the region; set for S3-compatible services (MinIO, Ceph, R2…). */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both unset → the SDK's default credential chain (instance role, AWS_* variables, profile). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path instead of the host name, as most S3-compatible servers want. */
  forcePathStyle: boolean;
  /** Server-side encryption asked on every write (S3_SSE, S3_SSE_KMS_KEY_ID); unset → the bucket's default. */
  sse?: { algorithm: 'AES256' | 'aws:kms'; kmsKeyId?: string };
  /** Milliseconds (docs/operations.md "Outbound calls"). */
  timeouts: {
    /** Opening a connection. */
    connectMs: number;
    /** The store silent (no byte either way) at any point of a request: waiting for its answer or mid-transfer. */
    socketMs: number;
    /** One request, from its first byte to the store's answer (a download's body streams on after it). */
    requestMs: number;
  };
}

/**
 * Runtime configuration, read once from the environment (contract §5) and validated by one zod
 * schema: every variable is typed here, documented in `.env.example` and docs/operations.md, and a
 * bad value stops start-up with one line naming the variable, the problem and the expected form.
 */
export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  databaseUrl: string | undefined;
  /** PostgreSQL read replicas for list, detail and aggregate reads (docs/operations.md "Read replicas"). */
  databaseReadUrls: string[];
  /** A direct (session) connection for the change feed's LISTEN, when DATABASE_URL goes through a transaction pooler. */
  databaseListenUrl: string | undefined;
  dataDir: string;
  /** Uploaded files (KYC documents) for the local FileStorage. */
  storageDir: string;
  jwtSecret: string;
  /** The secret being rotated out: tokens and links it made are still accepted, none are made with it. */
  jwtSecretPrevious: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  logLevel: string;
  trustProxy: string | boolean;
  bodyLimit: string;
  seedOnStart: boolean;
  seedSize: number;
  rateLimitPerMinute: number;
  /** What this process runs: `api` (HTTP API only), `worker` (background jobs and health only), `all` (both). */
  role: 'all' | 'api' | 'worker';
  /** Push outbox: drain interval (0 = no worker in this process), attempts before FAILED. */
  pushWorkerIntervalMs: number;
  pushMaxAttempts: number;
  /** Deliveries one worker claims and sends per drain. */
  pushBatchSize: number;
  /** Firebase service-account JSON, or a path to it; unset → pushes go to the log. */
  firebaseCredentials: string | undefined;
  /** One push send, retries of the push service's client included, before it counts as a retryable failure (ms). */
  pushSendTimeoutMs: number;
  uploadMaxBytes: number;

  // -- lifecycle (deployment) -------------------------------------------------------------------
  /** Apply pending migrations at start (under the migration lock); off in production unless asked. */
  migrateOnStart: boolean;
  /** Let a production database keep the demo accounts with their public password (staging only). */
  allowDemoAccounts: boolean;
  /** Browser origins allowed by CORS (the dashboard); empty = no cross-origin access. */
  corsOrigins: string[];

  // --- Limits, shared state and exposure (docs/api.md "Limits"; README configuration table) ---
  /** Largest JSON body on /graphql (413 above); GraphQL's own document limits are in src/graphql/limits.ts. */
  graphqlBodyLimit: string;
  /** Login protection beyond `rateLimitPerMinute` (RateLimitService). */
  loginConsecutiveFails: number;
  loginFailsPerIpPerDay: number;
  loginFailsPerAccountPerHour: number;
  /** Shared state for several instances (rate limits); unset → this process's memory. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key this gateway writes. */
  redisKeyPrefix: string;
  /** `/metrics` needs `Authorization: Bearer <token>` when set. */
  metricsToken: string | undefined;
  /** `/metrics` is served on this port only (not on `port`) when set. */
  metricsPort: number | undefined;
  /**
   * Persisted documents on /graphql (docs/api.md "Persisted queries"): `off` Apollo's APQ only,
   * `allow` the client SDK's manifest answers its ids too, `only` non-staff must send a manifest id.
   */
  trustedDocuments: TrustedDocumentsMode;

  // -- Idempotency-Key (contract §1) --
  /** How long a completed request's answer is replayed, seconds. */
  idempotencyTtlSeconds: number;
  /** How long an unfinished request holds its key; after it (a crashed instance) the key is free again, seconds. */
  idempotencyLockSeconds: number;

  // -- audit trail (docs/audit.md) --
  /** How often the gateway seals new audit events into the hash chain (0 = no sealer in this process). */
  auditSealIntervalMs: number;
  /** Audit events older than this many days are pruned (as a sealed prefix); undefined keeps them forever. */
  auditRetentionDays: number | undefined;
  /** Ed25519 private key that signs audit checkpoints (AUDIT_SIGNING_KEY); undefined → no checkpoints. */
  auditSigningKey: KeyObject | undefined;
  /** Public key of the signing key being rotated out (AUDIT_SIGNING_KEY_PREVIOUS): never signs, still verifies. */
  auditSigningKeyPrevious: KeyObject | undefined;
  /** How often the sealer signs the chain's head into a checkpoint (0 = only on demand). */
  auditCheckpointIntervalMs: number;
  /** S3 Object Lock (compliance mode) on each checkpoint for this many days; undefined → none. */
  auditCheckpointRetentionDays: number | undefined;

  // -- mail and observability --
  /** smtp://user:pass@host:587 (or smtps://…); unset → mail goes to the log (dropped in production). */
  smtpUrl: string | undefined;
  /** The From header of outgoing mail. */
  mailFrom: string;
  /** SMTP: connecting, the server's greeting, and any silence after it, each (ms). */
  smtpTimeoutMs: number;
  /** `pretty` (pino-pretty) or `json`; unset → pretty in development on a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | undefined;

  // -- database resilience and shutdown (docs/api.md "Availability") --
  /** Connections to PostgreSQL in this process's pool. */
  dbPoolSize: number;
  /** At start, how long to keep trying an unreachable database (not ready meanwhile) before exiting, seconds. */
  databaseWaitSeconds: number;
  /** Timeouts in ms (0 = none): connect/acquire, one statement, idle inside a transaction. */
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  dbIdleInTransactionTimeoutMs: number;
  /** Interactive transactions: longest wait to start one, longest life of one. */
  dbTransactionMaxWaitMs: number;
  dbTransactionTimeoutMs: number;
  /** After SIGTERM: how long /readyz says 503 while everything else is still served. */
  shutdownGraceMs: number;
  /** After the grace: the longest wait for in-flight requests before connections are cut. */
  shutdownTimeoutMs: number;

  // --- File storage (KYC documents) ---
  /** STORAGE=local (storageDir, the default) or s3 (S3_* below). */
  storage: { kind: 'local' } | { kind: 's3'; s3: S3StorageOptions };
}

/** A configuration value the gateway cannot start with; the message is the one line to print. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const DEV_JWT_SECRET = 'dev-only-insecure-secret-change-me';
const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const TRUSTED_DOCUMENTS_MODES = ['off', 'allow', 'only'] as const;
export type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENTS_MODES)[number];

// Each helper takes the raw text (an unset or empty variable is "absent") and says what it expects,
// so an error reads "PORT must be an integer from 0 to 65535 (got "abc")".
const text = () => z.string().trim();
/** Never echoed back in an error line. */
const SECRETS = new Set([
  'JWT_SECRET',
  'JWT_SECRET_PREVIOUS',
  'DATABASE_URL',
  'DATABASE_READ_URLS',
  'DATABASE_LISTEN_URL',
  'FIREBASE_CREDENTIALS',
  'REDIS_URL',
  'METRICS_TOKEN',
  'SMTP_URL',
  'S3_SECRET_ACCESS_KEY',
  'AUDIT_SIGNING_KEY',
  'AUDIT_SIGNING_KEY_PREVIOUS',
]);

function integer(fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return optionalInteger(min, max).default(fallback);
}

function optionalInteger(min = 0, max = Number.MAX_SAFE_INTEGER) {
  const expected = { error: `must be an integer from ${min} to ${max}` };
  return text()
    .regex(/^-?\d+$/, expected)
    .transform(Number)
    .pipe(z.number().int().min(min, expected).max(max, expected));
}

function size(fallback: string) {
  return text()
    .refine((v) => bytes.parse(v) !== null, { error: 'must be a size such as 1mb, 512kb or 1048576' })
    .default(fallback);
}

/**
 * An Ed25519 key as PEM (newlines may be written as a literal \n in a one-line variable) or the path of a PEM
 * file: private for AUDIT_SIGNING_KEY, private or public for the previous one and for audit:verify.
 */
export function readEd25519Key(value: string, kind: 'private' | 'public'): KeyObject {
  const pem = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : readFileSync(value, 'utf8');
  const key = kind === 'private' || pem.includes('PRIVATE KEY') ? createPrivateKey(pem) : createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${key.asymmetricKeyType})`);
  return kind === 'public' && key.type === 'private' ? createPublicKey(key) : key;
}

function ed25519Key(kind: 'private' | 'public') {
  return z.string().transform((v, ctx) => {
    try {
      return readEd25519Key(v.trim(), kind);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `must be an Ed25519 ${kind === 'private' ? 'private' : 'private or public'} key in PEM, or the path of a PEM file`,
      });
      return z.NEVER;
    }
  });
}

function flag() {
  return z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
}

/** The environment's variables; their names are the public interface (see .env.example). */
const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
    PORT: integer(4000, 0, 65535),
    DATABASE_URL: text().regex(POSTGRES_URL, { error: 'must be a PostgreSQL URL such as postgresql://user:password@host:5432/database' }).optional(),
    DATABASE_READ_URLS: text()
      .transform((v) =>
        v
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every((u) => POSTGRES_URL.test(u)), {
        error: 'must be a comma-separated list of PostgreSQL URLs such as postgresql://user:password@replica1:5432/database',
      })
      .default([]),
    DATA_DIR: text().default('./data'),
    STORAGE_DIR: text().optional(),
    JWT_SECRET: z.string().optional(),
    JWT_SECRET_PREVIOUS: z.string().optional(),
    ACCESS_TOKEN_TTL: integer(900, 1),
    REFRESH_TOKEN_TTL_DAYS: integer(30, 1),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
    // Express "trust proxy": unset → do not trust X-Forwarded-*; "true", a hop count or a subnet list otherwise.
    TRUST_PROXY: text()
      .transform((v): string | boolean => (v === 'true' ? true : v === 'false' ? false : v))
      .default(false),
    BODY_LIMIT: size('1mb'),
    SEED_ON_START: flag().optional(),
    SEED_INVESTORS: integer(200),
    AUTH_RATE_LIMIT_PER_MINUTE: integer(10),
    ROLE: z.enum(['all', 'api', 'worker'], { error: 'must be all, api or worker' }).default('all'),
    PUSH_WORKER_INTERVAL_MS: integer(5000),
    PUSH_MAX_ATTEMPTS: integer(5, 1),
    PUSH_BATCH_SIZE: integer(100, 1, 10_000),
    FIREBASE_CREDENTIALS: z.string().optional(),
    // Below the outbox's 60 s lease: a send still under way when its lease ends would be taken for a crash.
    PUSH_SEND_TIMEOUT_MS: integer(10_000, 1, 30_000),
    UPLOAD_MAX_BYTES: integer(10 * 1024 * 1024, 1),

    // -- lifecycle (deployment) -----------------------------------------------------------------
    MIGRATE_ON_START: flag().optional(),
    ALLOW_DEMO_ACCOUNTS: flag().default(false),
    CORS_ORIGINS: text()
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every(isOrigin), { error: 'must be a comma-separated list of origins such as https://dashboard.example.com' })
      .default([]),

    // -- limits, shared state and exposure --------------------------------------------------------
    GRAPHQL_BODY_LIMIT: size('100kb'),
    LOGIN_CONSECUTIVE_FAILS: integer(10),
    LOGIN_FAILS_PER_IP_PER_DAY: integer(100),
    LOGIN_FAILS_PER_ACCOUNT_PER_HOUR: integer(20),
    REDIS_URL: text()
      .regex(/^rediss?:\/\/\S+$/, { error: 'must be a Redis URL such as redis://host:6379' })
      .optional(),
    REDIS_KEY_PREFIX: z.string().default('gateway:'),
    METRICS_TOKEN: z.string().optional(),
    // 0: an ephemeral port (tests).
    METRICS_PORT: optionalInteger(0, 65535).optional(),
    TRUSTED_DOCUMENTS: z.enum(TRUSTED_DOCUMENTS_MODES, { error: `must be one of ${TRUSTED_DOCUMENTS_MODES.join(', ')}` }).default('allow'),

    // -- idempotency keys, audit trail --
    IDEMPOTENCY_TTL_SECONDS: integer(24 * 60 * 60, 1),
    IDEMPOTENCY_LOCK_SECONDS: integer(300, 1),
    AUDIT_SEAL_INTERVAL_MS: integer(5000),
    AUDIT_RETENTION_DAYS: optionalInteger(1).optional(),
    AUDIT_SIGNING_KEY: ed25519Key('private').optional(),
    AUDIT_SIGNING_KEY_PREVIOUS: ed25519Key('public').optional(),
    AUDIT_CHECKPOINT_INTERVAL_MS: integer(15 * 60 * 1000),
    AUDIT_CHECKPOINT_RETENTION_DAYS: optionalInteger(1).optional(),

    // -- mail and observability --
    SMTP_URL: text()
      .regex(/^smtps?:\/\/\S+$/, { error: 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587' })
      .optional(),
    MAIL_FROM: text().default('Investment Platform <no-reply@localhost>'),
    SMTP_TIMEOUT_MS: integer(10_000, 1),
    LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),

    // -- database resilience and shutdown --
    DB_POOL_SIZE: integer(10, 1),
    DATABASE_WAIT_SECONDS: integer(60),
    DB_CONNECT_TIMEOUT_MS: integer(2000),
    DB_STATEMENT_TIMEOUT_MS: integer(5000),
    DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: integer(10_000),
    DB_TRANSACTION_MAX_WAIT_MS: integer(2000),
    DB_TRANSACTION_TIMEOUT_MS: integer(10_000),
    SHUTDOWN_GRACE_MS: optionalInteger().optional(),
    SHUTDOWN_TIMEOUT_MS: integer(30_000),

    // -- file storage (KYC documents) --
    STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
    S3_ENDPOINT: text()
      .regex(/^https?:\/\/\S+$/, { error: 'must be an http(s) URL such as http://minio:9000' })
      .optional(),
    DATABASE_LISTEN_URL: text().regex(POSTGRES_URL, { error: 'must be a PostgreSQL URL such as postgresql://user:password@host:5432/database' }).optional(),
    S3_BUCKET: text().optional(),
    S3_REGION: text().default('us-east-1'),
    S3_ACCESS_KEY_ID: text().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: flag().default(false),
    S3_CONNECT_TIMEOUT_MS: integer(2000, 1),
    S3_SOCKET_TIMEOUT_MS: integer(3000, 1),
    S3_REQUEST_TIMEOUT_MS: integer(30_000, 1),
    S3_SSE: z.enum(['AES256', 'aws:kms'], { error: 'must be AES256 or aws:kms' }).optional(),
    S3_SSE_KMS_KEY_ID: text().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE === 's3' && !env.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'must be set when STORAGE=s3' });
    if (env.DATABASE_READ_URLS.length && !env.DATABASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URLS'],
        message: 'needs DATABASE_URL (replicas are of a PostgreSQL primary; the embedded database has none)',
      });
    if (env.JWT_SECRET_PREVIOUS !== undefined && env.JWT_SECRET_PREVIOUS === (env.JWT_SECRET ?? DEV_JWT_SECRET))
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET_PREVIOUS'], message: 'must differ from JWT_SECRET (it is the secret being rotated out)' });
    if (env.AUDIT_CHECKPOINT_RETENTION_DAYS !== undefined && env.STORAGE !== 's3')
      ctx.addIssue({
        code: 'custom',
        path: ['AUDIT_CHECKPOINT_RETENTION_DAYS'],
        message: 'needs STORAGE=s3 (S3 Object Lock; the local store cannot lock a file)',
      });
    if (env.S3_SSE_KMS_KEY_ID && env.S3_SSE !== 'aws:kms') ctx.addIssue({ code: 'custom', path: ['S3_SSE_KMS_KEY_ID'], message: 'needs S3_SSE=aws:kms' });
    if (env.DATABASE_LISTEN_URL && !env.DATABASE_URL)
      ctx.addIssue({ code: 'custom', path: ['DATABASE_LISTEN_URL'], message: 'needs DATABASE_URL (the embedded database listens in-process)' });
    if (env.NODE_ENV !== 'production') return;
    if (env.JWT_SECRET_PREVIOUS !== undefined && (env.JWT_SECRET_PREVIOUS.length < 32 || env.JWT_SECRET_PREVIOUS === DEV_JWT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET_PREVIOUS'],
        message: 'must be at least 32 characters and not the development default when NODE_ENV=production',
      });
    }
    if ((env.JWT_SECRET ?? '').length < 32 || env.JWT_SECRET === DEV_JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'must be set (at least 32 characters, not the development default) when NODE_ENV=production',
      });
    }
    if (env.SEED_ON_START) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_ON_START'],
        message: 'cannot be true when NODE_ENV=production (load demo data explicitly: npm run seed -- --force)',
      });
    }
  });

/** Every variable the gateway reads (a test keeps .env.example and docs/operations.md complete). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** `https://host[:port]` exactly as a browser sends it in the Origin header (no path, no slash). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

function describeIssues(error: z.ZodError, env: NodeJS.ProcessEnv): string {
  return error.issues
    .map((issue) => {
      const name = String(issue.path[0]);
      const raw = env[name];
      return `${name} ${issue.message}${raw === undefined || SECRETS.has(name) ? '' : ` (got ${JSON.stringify(raw)})`}`;
    })
    .join('; ');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as it did before the schema (e.g. `DATABASE_URL=` in a shell).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: ${describeIssues(parsed.error, env)}`);
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrls: e.DATABASE_READ_URLS,
    databaseListenUrl: e.DATABASE_LISTEN_URL,
    dataDir,
    storageDir: path.resolve(e.STORAGE_DIR ?? path.join(dataDir, 'files')),
    jwtSecret: e.JWT_SECRET || DEV_JWT_SECRET,
    jwtSecretPrevious: e.JWT_SECRET_PREVIOUS,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy: e.TRUST_PROXY,
    bodyLimit: e.BODY_LIMIT,
    // Demo data is a development convenience: production never loads it on start.
    seedOnStart: e.SEED_ON_START ?? !production,
    seedSize: e.SEED_INVESTORS,
    rateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    role: e.ROLE,
    pushWorkerIntervalMs: e.PUSH_WORKER_INTERVAL_MS,
    pushMaxAttempts: e.PUSH_MAX_ATTEMPTS,
    pushBatchSize: e.PUSH_BATCH_SIZE,
    firebaseCredentials: e.FIREBASE_CREDENTIALS,
    pushSendTimeoutMs: e.PUSH_SEND_TIMEOUT_MS,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    migrateOnStart: e.MIGRATE_ON_START ?? !production,
    allowDemoAccounts: e.ALLOW_DEMO_ACCOUNTS,
    corsOrigins: e.CORS_ORIGINS,
    graphqlBodyLimit: e.GRAPHQL_BODY_LIMIT,
    loginConsecutiveFails: e.LOGIN_CONSECUTIVE_FAILS,
    loginFailsPerIpPerDay: e.LOGIN_FAILS_PER_IP_PER_DAY,
    loginFailsPerAccountPerHour: e.LOGIN_FAILS_PER_ACCOUNT_PER_HOUR,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    trustedDocuments: e.TRUSTED_DOCUMENTS,
    idempotencyTtlSeconds: e.IDEMPOTENCY_TTL_SECONDS,
    idempotencyLockSeconds: e.IDEMPOTENCY_LOCK_SECONDS,
    auditSealIntervalMs: e.AUDIT_SEAL_INTERVAL_MS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    auditSigningKey: e.AUDIT_SIGNING_KEY,
    auditSigningKeyPrevious: e.AUDIT_SIGNING_KEY_PREVIOUS,
    auditCheckpointIntervalMs: e.AUDIT_CHECKPOINT_INTERVAL_MS,
    auditCheckpointRetentionDays: e.AUDIT_CHECKPOINT_RETENTION_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    smtpTimeoutMs: e.SMTP_TIMEOUT_MS,
    logFormat: e.LOG_FORMAT,
    dbPoolSize: e.DB_POOL_SIZE,
    databaseWaitSeconds: e.DATABASE_WAIT_SECONDS,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    dbIdleInTransactionTimeoutMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    dbTransactionMaxWaitMs: e.DB_TRANSACTION_MAX_WAIT_MS,
    dbTransactionTimeoutMs: e.DB_TRANSACTION_TIMEOUT_MS,
    // Production: long enough for a load balancer's health check to notice; elsewhere nobody is watching.
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS ?? (production ? 5000 : 0),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            s3: {
              endpoint: e.S3_ENDPOINT,
              bucket: required(e.S3_BUCKET, 'S3_BUCKET'),
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
              sse: e.S3_SSE ? { algorithm: e.S3_SSE, kmsKeyId: e.S3_SSE_KMS_KEY_ID } : undefined,
              timeouts: { connectMs: e.S3_CONNECT_TIMEOUT_MS, socketMs: e.S3_SOCKET_TIMEOUT_MS, requestMs: e.S3_REQUEST_TIMEOUT_MS },
            },
          }
        : { kind: 'local' },
  };
}

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

/** A configuration value the gateway cannot start with; the message is the one line to print. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const DEV_JWT_SECRET = 'dev-only-insecure-secret-change-me';
const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const TRUSTED_DOCUMENTS_MODES = ['off', 'allow', 'only'] as const;
export type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENTS_MODES)[number];

// Each parser takes the raw text and says what it expects, so an error reads
// "PORT must be an integer from 0 to 65535 (got "abc")".
const text = () => z.string().trim();

function integer(min = 0, max = Number.MAX_SAFE_INTEGER) {
  const expected = { error: `must be an integer from ${min} to ${max}` };
  return text()
    .regex(/^-?\d+$/, expected)
    .transform(Number)
    .pipe(z.number().int().min(min, expected).max(max, expected));
}

function size() {
  return text().refine((v) => bytes.parse(v) !== null, { error: 'must be a size such as 1mb, 512kb or 1048576' });
}

function flag() {
  return z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
}

function postgresUrl(user = 'user') {
  return text().regex(POSTGRES_URL, { error: `must be a PostgreSQL URL such as postgresql://${user}:password@host:5432/database` });
}

/** A comma-separated list; unset → empty. */
function list(valid: (item: string) => boolean, error: string) {
  return text()
    .transform((v) =>
      v
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine((items) => items.every(valid), { error })
    .default([]);
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

/** `https://host[:port]` exactly as a browser sends it in the Origin header (no path, no slash). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/** One environment variable, declared once in VARIABLES below. */
export interface Variable {
  /** Reads the variable's text; `.optional()` when it may stay unset (an empty variable counts as unset). */
  readonly parse: z.ZodType;
  /** An unset variable's value, written as in the environment and parsed like a set one (zod's prefault). */
  readonly default?: string;
  /** Without `default`: what unset means, as the docs' default column says it ("unset" when not given). */
  readonly unset?: string;
  /** The Config property that takes the parsed value; none when `derived` computes a property from it. */
  readonly key?: string;
  /** Never echoed back in an error line. */
  readonly secret?: true;
  readonly description: string;
}

/**
 * Every variable the gateway reads (contract §5); their names are the public interface. The Config type,
 * the schema loadConfig parses with and its error lines come from this table; test/unit/config-docs.test.ts
 * checks docs/operations.md's and README.md's configuration tables against it, test/startup.test.ts
 * `.env.example`. Their order is the order of the problems in an error line.
 */
export const VARIABLES = {
  NODE_ENV: {
    key: 'env',
    parse: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }),
    default: 'development',
    description: 'production: nothing migrated or seeded at start, demo logins refused, JWT_SECRET required.',
  },
  PORT: { key: 'port', parse: integer(0, 65535), default: '4000', description: 'The HTTP port.' },
  DATABASE_URL: {
    key: 'databaseUrl',
    parse: postgresUrl().optional(),
    secret: true,
    description: 'PostgreSQL; unset → the embedded PGlite.',
  },
  MIGRATE_DATABASE_URL: {
    key: 'migrateDatabaseUrl',
    parse: postgresUrl('owner').optional(),
    secret: true,
    description: 'The tables\' owner, for migrations (docs/operations.md "Database roles"); DATABASE_URL\'s role then only reads and writes rows.',
  },
  DATABASE_READ_URLS: {
    key: 'databaseReadUrls',
    parse: list((u) => POSTGRES_URL.test(u), 'must be a comma-separated list of PostgreSQL URLs such as postgresql://user:password@replica1:5432/database'),
    secret: true,
    description: 'PostgreSQL read replicas for list, detail and aggregate reads (docs/operations.md "Read replicas").',
  },
  DATA_DIR: {
    key: 'dataDir',
    parse: text().transform((dir) => path.resolve(dir)),
    default: './data',
    description: "PGlite's files ($DATA_DIR/pglite) and, by default, stored files.",
  },
  STORAGE_DIR: { parse: text().optional(), unset: '`$DATA_DIR/files`', description: 'Uploaded files (KYC documents) for the local FileStorage.' },
  JWT_SECRET: {
    parse: z.string().optional(),
    unset: 'dev-only value',
    secret: true,
    description: 'HS256 secret of access tokens; download links are encrypted under a key derived from it.',
  },
  JWT_SECRET_PREVIOUS: {
    key: 'jwtSecretPrevious',
    parse: z.string().optional(),
    secret: true,
    description: 'The secret being rotated out: tokens and links it made are still accepted, none are made with it.',
  },
  ACCESS_TOKEN_TTL: { key: 'accessTokenTtlSeconds', parse: integer(1), default: '900', description: 'Access token lifetime, seconds.' },
  REFRESH_TOKEN_TTL_DAYS: { key: 'refreshTokenTtlDays', parse: integer(1), default: '30', description: 'Session (refresh token) lifetime, days.' },
  LOG_LEVEL: {
    parse: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
    unset: '`info` (`silent` under `test`)',
    description: 'The pino level.',
  },
  TRUST_PROXY: {
    key: 'trustProxy',
    parse: text().transform((v): string | boolean => (v === 'true' ? true : v === 'false' ? false : v)),
    default: 'false',
    description: 'Express "trust proxy" ("true", a hop count or subnets): whether X-Forwarded-* give the client IP and host.',
  },
  BODY_LIMIT: { key: 'bodyLimit', parse: size(), default: '1mb', description: 'Largest JSON body on /api/v1 (413 above).' },
  SEED_ON_START: {
    parse: flag().optional(),
    unset: '`true`; `false` in production (and cannot be `true` there)',
    description: 'Load the demo data into an empty database at start; a development convenience.',
  },
  SEED_INVESTORS: { key: 'seedSize', parse: integer(), default: '200', description: 'Generated investors in the demo data set.' },
  AUTH_RATE_LIMIT_PER_MINUTE: {
    key: 'rateLimitPerMinute',
    parse: integer(),
    default: '10',
    description: 'Login, register and password attempts per minute (docs/api.md "Limits"); 0 turns off every auth limit.',
  },
  ROLE: {
    key: 'role',
    parse: z.enum(['all', 'api', 'worker'], { error: 'must be all, api or worker' }),
    default: 'all',
    description: 'What this process runs: `api` (HTTP API only), `worker` (background jobs and health only), `all` (both).',
  },
  PUSH_WORKER_INTERVAL_MS: {
    key: 'pushWorkerIntervalMs',
    parse: integer(),
    default: '5000',
    description: 'Push outbox drain interval (0: no worker in this process).',
  },
  PUSH_MAX_ATTEMPTS: { key: 'pushMaxAttempts', parse: integer(1), default: '5', description: 'Send attempts before a push is marked FAILED.' },
  PUSH_BATCH_SIZE: { key: 'pushBatchSize', parse: integer(1, 10_000), default: '100', description: 'Deliveries one worker claims and sends per drain.' },
  FIREBASE_CREDENTIALS: {
    key: 'firebaseCredentials',
    parse: z.string().optional(),
    secret: true,
    description: 'Firebase service-account JSON, or a path to it; unset → pushes go to the log.',
  },
  PUSH_SEND_TIMEOUT_MS: {
    key: 'pushSendTimeoutMs',
    // Below the outbox's 60 s lease: a send still under way when its lease ends would be taken for a crash.
    parse: integer(1, 30_000),
    default: '10000',
    description: "One push send, the push service client's retries included, before it counts as failed (ms).",
  },
  UPLOAD_MAX_BYTES: { key: 'uploadMaxBytes', parse: integer(1), default: '10485760', description: 'Largest KYC document, bytes (422 above).' },
  MIGRATE_ON_START: {
    parse: flag().optional(),
    unset: '`true`; `false` in production',
    description: 'Apply pending migrations at start, under the migration lock.',
  },
  ALLOW_DEMO_ACCOUNTS: {
    key: 'allowDemoAccounts',
    parse: flag(),
    default: 'false',
    description: 'Let a production database keep the demo accounts with their public password (staging only).',
  },
  CORS_ORIGINS: {
    key: 'corsOrigins',
    parse: list(isOrigin, 'must be a comma-separated list of origins such as https://dashboard.example.com'),
    description: 'Browser origins allowed by CORS (the dashboard); none → no cross-origin access.',
  },
  GRAPHQL_BODY_LIMIT: {
    key: 'graphqlBodyLimit',
    parse: size(),
    default: '100kb',
    description: "Largest JSON body on /graphql (413 above); GraphQL's own document limits are in src/graphql/limits.ts.",
  },
  LOGIN_CONSECUTIVE_FAILS: {
    key: 'loginConsecutiveFails',
    parse: integer(),
    default: '10',
    description: 'Failed logins in a row for one email from one client before that pair is blocked for an hour.',
  },
  LOGIN_FAILS_PER_IP_PER_DAY: {
    key: 'loginFailsPerIpPerDay',
    parse: integer(),
    default: '100',
    description: 'Failed logins per client IP per day, across emails.',
  },
  LOGIN_FAILS_PER_ACCOUNT_PER_HOUR: {
    key: 'loginFailsPerAccountPerHour',
    parse: integer(),
    default: '20',
    description: 'Failed logins per account per hour, across client IPs.',
  },
  REDIS_URL: {
    key: 'redisUrl',
    parse: text()
      .regex(/^rediss?:\/\/\S+$/, { error: 'must be a Redis URL such as redis://host:6379' })
      .optional(),
    secret: true,
    description: "State shared by several instances (rate limits, persisted queries); unset → this process's memory.",
  },
  REDIS_KEY_PREFIX: { key: 'redisKeyPrefix', parse: z.string(), default: 'gateway:', description: 'Prefix of every Redis key this gateway writes.' },
  METRICS_TOKEN: { key: 'metricsToken', parse: z.string().optional(), secret: true, description: '/metrics needs `Authorization: Bearer <token>` when set.' },
  METRICS_PORT: {
    key: 'metricsPort',
    // 0: an ephemeral port (tests).
    parse: integer(0, 65535).optional(),
    description: '/metrics is served on this port only (not on PORT) when set.',
  },
  TRUSTED_DOCUMENTS: {
    key: 'trustedDocuments',
    parse: z.enum(TRUSTED_DOCUMENTS_MODES, { error: `must be one of ${TRUSTED_DOCUMENTS_MODES.join(', ')}` }),
    default: 'allow',
    description: "Persisted documents on /graphql: `off` APQ only, `allow` the client SDK's manifest ids too, `only` non-staff must send one.",
  },
  IDEMPOTENCY_TTL_SECONDS: {
    key: 'idempotencyTtlSeconds',
    parse: integer(1),
    default: '86400',
    description: "How long a completed request's answer is replayed for its Idempotency-Key, seconds.",
  },
  IDEMPOTENCY_LOCK_SECONDS: {
    key: 'idempotencyLockSeconds',
    parse: integer(1),
    default: '300',
    description: 'How long an unfinished request holds its key; after it (a crashed instance) the key is free again, seconds.',
  },
  AUDIT_SEAL_INTERVAL_MS: {
    key: 'auditSealIntervalMs',
    parse: integer(),
    default: '5000',
    description: 'How often new audit events are sealed into the hash chain (0: no sealer in this process).',
  },
  AUDIT_RETENTION_DAYS: {
    key: 'auditRetentionDays',
    parse: integer(1).optional(),
    description: 'Audit events older than this many days are pruned (as a sealed prefix); unset keeps them forever.',
  },
  AUDIT_SIGNING_KEY: {
    key: 'auditSigningKey',
    parse: ed25519Key('private').optional(),
    secret: true,
    description: 'Ed25519 private key that signs audit checkpoints; unset → no checkpoints.',
  },
  AUDIT_SIGNING_KEY_PREVIOUS: {
    key: 'auditSigningKeyPrevious',
    parse: ed25519Key('public').optional(),
    secret: true,
    description: 'The signing key being rotated out: never signs, still verifies.',
  },
  AUDIT_CHECKPOINT_INTERVAL_MS: {
    key: 'auditCheckpointIntervalMs',
    parse: integer(),
    default: '900000',
    description: "How often the sealer signs the chain's head into a checkpoint (0: only on demand).",
  },
  AUDIT_CHECKPOINT_RETENTION_DAYS: {
    key: 'auditCheckpointRetentionDays',
    parse: integer(1).optional(),
    description: 'S3 Object Lock (compliance mode) on each checkpoint for this many days; unset → none.',
  },
  SMTP_URL: {
    key: 'smtpUrl',
    parse: text()
      .regex(/^smtps?:\/\/\S+$/, { error: 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587' })
      .optional(),
    secret: true,
    description: 'smtp://user:pass@host:587 (or smtps://…); unset → mail goes to the log (dropped in production).',
  },
  MAIL_FROM: { key: 'mailFrom', parse: text(), default: 'Investment Platform <no-reply@localhost>', description: 'The From header of outgoing mail.' },
  SMTP_TIMEOUT_MS: {
    key: 'smtpTimeoutMs',
    parse: integer(1),
    default: '10000',
    description: "SMTP: connecting, the server's greeting, and any silence after it, each (ms).",
  },
  LOG_FORMAT: {
    key: 'logFormat',
    parse: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),
    unset: 'auto',
    description: '`pretty` (pino-pretty) or `json`; unset → pretty in development on a terminal, JSON otherwise.',
  },
  DB_POOL_SIZE: { key: 'dbPoolSize', parse: integer(1), default: '10', description: "Connections to PostgreSQL in this process's pool." },
  DATABASE_WAIT_SECONDS: {
    key: 'databaseWaitSeconds',
    parse: integer(),
    default: '60',
    description: 'At start, how long to keep trying an unreachable database (not ready meanwhile) before exiting, seconds.',
  },
  DB_CONNECT_TIMEOUT_MS: {
    key: 'dbConnectTimeoutMs',
    parse: integer(),
    default: '2000',
    description: 'Opening a connection, or waiting for a free one (ms; 0: none).',
  },
  DB_STATEMENT_TIMEOUT_MS: { key: 'dbStatementTimeoutMs', parse: integer(), default: '5000', description: 'One SQL statement (ms; 0: none).' },
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: {
    key: 'dbIdleInTransactionTimeoutMs',
    parse: integer(),
    default: '10000',
    description: 'The server ends a session idle inside a transaction this long (ms; 0: never).',
  },
  DB_TRANSACTION_MAX_WAIT_MS: {
    key: 'dbTransactionMaxWaitMs',
    parse: integer(),
    default: '2000',
    description: 'Longest wait to start an interactive transaction (ms).',
  },
  DB_TRANSACTION_TIMEOUT_MS: {
    key: 'dbTransactionTimeoutMs',
    parse: integer(),
    default: '10000',
    description: 'Longest life of an interactive transaction (ms).',
  },
  SHUTDOWN_GRACE_MS: {
    parse: integer().optional(),
    unset: '`5000` in production, else `0`',
    description: 'After SIGTERM: how long /readyz says 503 while everything else is still served.',
  },
  SHUTDOWN_TIMEOUT_MS: {
    key: 'shutdownTimeoutMs',
    parse: integer(),
    default: '30000',
    description: 'After the grace: the longest wait for in-flight requests before connections are cut (ms).',
  },
  STORAGE: {
    parse: z.enum(['local', 's3'], { error: 'must be local or s3' }),
    default: 'local',
    description: 'Where uploaded files go: `local` (STORAGE_DIR, one instance) or `s3` (a bucket shared by every instance).',
  },
  S3_ENDPOINT: {
    parse: text()
      .regex(/^https?:\/\/\S+$/, { error: 'must be an http(s) URL such as http://minio:9000' })
      .optional(),
    description: 'Endpoint of an S3-compatible service (MinIO, Ceph, R2…); unset → AWS S3.',
  },
  DATABASE_LISTEN_URL: {
    key: 'databaseListenUrl',
    parse: postgresUrl().optional(),
    unset: '`DATABASE_URL`',
    secret: true,
    description: "A direct (session) connection for the change feed's LISTEN, when DATABASE_URL goes through a transaction pooler.",
  },
  S3_BUCKET: { parse: text().optional(), description: 'Bucket for STORAGE=s3 (required then).' },
  S3_REGION: { parse: text(), default: 'us-east-1', description: 'Region for STORAGE=s3.' },
  S3_ACCESS_KEY_ID: { parse: text().optional(), description: "Access key; unset with the secret → the AWS SDK's default credential chain." },
  S3_SECRET_ACCESS_KEY: { parse: z.string().optional(), secret: true, description: 'Secret key of S3_ACCESS_KEY_ID.' },
  S3_FORCE_PATH_STYLE: { parse: flag(), default: 'false', description: 'Bucket in the path, not the host name (most S3-compatible servers).' },
  S3_CONNECT_TIMEOUT_MS: { parse: integer(1), default: '2000', description: 'Opening a connection to the object store (ms).' },
  S3_SOCKET_TIMEOUT_MS: { parse: integer(1), default: '3000', description: 'The store silent at any point of a request (ms).' },
  S3_REQUEST_TIMEOUT_MS: { parse: integer(1), default: '30000', description: "One request, from its first byte to the store's answer (ms)." },
  S3_SSE: {
    parse: z.enum(['AES256', 'aws:kms'], { error: 'must be AES256 or aws:kms' }).optional(),
    description: "Server-side encryption asked on every write; unset → the bucket's default.",
  },
  S3_SSE_KMS_KEY_ID: { parse: text().optional(), description: "With S3_SSE=aws:kms: the KMS key; unset → the account's AWS-managed key." },
} as const satisfies Record<string, Variable>;

type Declared = typeof VARIABLES;
const declared: Readonly<Record<string, Variable>> = VARIABLES;

/** Every variable the gateway reads (a test keeps .env.example and docs/operations.md complete). */
export const CONFIG_VARIABLES = Object.keys(VARIABLES);
const SECRETS = new Set(CONFIG_VARIABLES.filter((name) => declared[name].secret));

const variablesSchema = z.object(
  Object.fromEntries(Object.entries(declared).map(([name, v]) => [name, v.default === undefined ? v.parse : v.parse.prefault(v.default)])) as {
    [N in keyof Declared]: Declared[N]['parse'];
  },
);
type Environment = z.output<typeof variablesSchema>;

/** The rules between variables; the parsers above check each alone. */
function checkCombinations(env: Environment, ctx: z.RefinementCtx): void {
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
  if (env.MIGRATE_DATABASE_URL && !env.DATABASE_URL)
    ctx.addIssue({ code: 'custom', path: ['MIGRATE_DATABASE_URL'], message: 'needs DATABASE_URL (the embedded database has one role)' });
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
}

const envSchema = variablesSchema.superRefine(checkCombinations);

/** The properties each variable with a `key` gives as parsed. */
type Direct = { [N in keyof Declared as Declared[N] extends { key: infer K extends string } ? K : never]: Environment[N] };

function direct(env: Environment): Direct {
  return Object.fromEntries(Object.entries(declared).flatMap(([name, v]) => (v.key ? [[v.key, env[name as keyof Environment]]] : []))) as Direct;
}

/** The properties computed from several variables: an unset one whose meaning depends on another (its `unset`), and the file store. */
function derived(env: Environment) {
  const production = env.NODE_ENV === 'production';
  return {
    storageDir: path.resolve(env.STORAGE_DIR ?? path.join(env.DATA_DIR, 'files')),
    jwtSecret: env.JWT_SECRET ?? DEV_JWT_SECRET,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    // Demo data is a development convenience: production never loads it on start.
    seedOnStart: env.SEED_ON_START ?? !production,
    migrateOnStart: env.MIGRATE_ON_START ?? !production,
    // Production: long enough for a load balancer's health check to notice; elsewhere nobody is watching.
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS ?? (production ? 5000 : 0),
    storage: storage(env),
  };
}

function storage(env: Environment): { kind: 'local' } | { kind: 's3'; s3: S3StorageOptions } {
  if (env.STORAGE === 'local') return { kind: 'local' };
  return {
    kind: 's3',
    s3: {
      endpoint: env.S3_ENDPOINT,
      bucket: required(env.S3_BUCKET, 'S3_BUCKET'),
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      sse: env.S3_SSE ? { algorithm: env.S3_SSE, kmsKeyId: env.S3_SSE_KMS_KEY_ID } : undefined,
      timeouts: { connectMs: env.S3_CONNECT_TIMEOUT_MS, socketMs: env.S3_SOCKET_TIMEOUT_MS, requestMs: env.S3_REQUEST_TIMEOUT_MS },
    },
  };
}

/** Runtime configuration, read once from the environment (contract §5): what VARIABLES declare. */
export type Config = Direct & ReturnType<typeof derived>;

function describeIssues(error: z.ZodError, env: NodeJS.ProcessEnv): string {
  return error.issues
    .map((issue) => {
      const name = String(issue.path[0]);
      const raw = env[name];
      return `${name} ${issue.message}${raw === undefined || SECRETS.has(name) ? '' : ` (got ${JSON.stringify(raw)})`}`;
    })
    .join('; ');
}

/** The environment as VARIABLES declare it; a bad value stops start-up with one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as it did before the schema (e.g. `DATABASE_URL=` in a shell).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: ${describeIssues(parsed.error, env)}`);
  return { ...direct(parsed.data), ...derived(parsed.data) };
}

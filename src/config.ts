import path from 'node:path';
import type { S3StorageOptions } from './services/storage/s3-file-storage';

/** Runtime configuration, read once from the environment (contract §5). */
export interface Config {
  env: string;
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Uploaded files (KYC documents) for the local FileStorage. */
  storageDir: string;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  logLevel: string;
  trustProxy: string | boolean;
  bodyLimit: string;
  seedOnStart: boolean;
  seedSize: number;
  rateLimitPerMinute: number;
  /** Push outbox: drain interval (0 = no worker in this process), attempts before FAILED. */
  pushWorkerIntervalMs: number;
  pushMaxAttempts: number;
  /** Firebase service-account JSON, or a path to it; unset → pushes go to the log. */
  firebaseCredentials: string | undefined;
  uploadMaxBytes: number;

  // --- Limits, shared state and exposure (docs/api.md "Limits"; README configuration table) ---
  /** Largest JSON body on /graphql (413 above); GraphQL's own document limits are in src/graphql-limits.ts. */
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

  // -- Idempotency-Key (contract §1) --
  /** How long a completed request's answer is replayed, seconds. */
  idempotencyTtlSeconds: number;
  /** How long an unfinished request holds its key; after it (a crashed instance) the key is free again, seconds. */
  idempotencyLockSeconds: number;
  // ---- audit trail (docs/audit.md) ----
  /** How often the gateway seals new audit events into the hash chain (0 = no sealer in this process). */
  auditSealIntervalMs: number;
  /** Audit events older than this many days are pruned (as a sealed prefix); undefined keeps them forever. */
  auditRetentionDays: number | undefined;

  // --- File storage (KYC documents) ---
  /** STORAGE=local (storageDir, the default) or s3 (S3_* below). */
  storage: { kind: 'local' } | { kind: 's3'; s3: S3StorageOptions };
}

const DEV_JWT_SECRET = 'dev-only-insecure-secret-change-me';

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const jwtSecret = env.JWT_SECRET ?? '';
  if (nodeEnv === 'production' && (jwtSecret.length < 32 || jwtSecret === DEV_JWT_SECRET)) {
    throw new Error('JWT_SECRET must be set (at least 32 characters, not the development default) when NODE_ENV=production');
  }
  const trustProxy = env.TRUST_PROXY;
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    env: nodeEnv,
    port: int(env, 'PORT', 4000),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    storageDir: path.resolve(env.STORAGE_DIR ?? path.join(dataDir, 'files')),
    jwtSecret: jwtSecret || DEV_JWT_SECRET,
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL', 900),
    refreshTokenTtlDays: int(env, 'REFRESH_TOKEN_TTL_DAYS', 30),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    // Express "trust proxy": unset → do not trust X-Forwarded-*; "true", a hop count or a subnet list otherwise.
    trustProxy: trustProxy === undefined || trustProxy === '' ? false : trustProxy === 'true' ? true : trustProxy,
    bodyLimit: env.BODY_LIMIT ?? '1mb',
    seedOnStart: (env.SEED_ON_START ?? 'true') !== 'false',
    seedSize: int(env, 'SEED_INVESTORS', 200),
    rateLimitPerMinute: int(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 10),
    pushWorkerIntervalMs: int(env, 'PUSH_WORKER_INTERVAL_MS', 5000),
    pushMaxAttempts: int(env, 'PUSH_MAX_ATTEMPTS', 5),
    firebaseCredentials: env.FIREBASE_CREDENTIALS || undefined,
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 10 * 1024 * 1024),

    graphqlBodyLimit: env.GRAPHQL_BODY_LIMIT || '100kb',
    loginConsecutiveFails: int(env, 'LOGIN_CONSECUTIVE_FAILS', 10),
    loginFailsPerIpPerDay: int(env, 'LOGIN_FAILS_PER_IP_PER_DAY', 100),
    loginFailsPerAccountPerHour: int(env, 'LOGIN_FAILS_PER_ACCOUNT_PER_HOUR', 20),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'gateway:',
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0) : undefined,

    // -- Idempotency-Key --
    idempotencyTtlSeconds: int(env, 'IDEMPOTENCY_TTL_SECONDS', 24 * 60 * 60),
    idempotencyLockSeconds: int(env, 'IDEMPOTENCY_LOCK_SECONDS', 300),
    // ---- audit trail ----
    auditSealIntervalMs: int(env, 'AUDIT_SEAL_INTERVAL_MS', 5000),
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 0) || undefined,

    storage: fileStorage(env),
  };
}

/** STORAGE and the S3_* variables; s3 needs at least a bucket. */
function fileStorage(env: NodeJS.ProcessEnv): Config['storage'] {
  const kind = env.STORAGE || 'local';
  if (kind === 'local') return { kind };
  if (kind !== 's3') throw new Error(`STORAGE must be "local" or "s3", got "${kind}"`);
  if (!env.S3_BUCKET) throw new Error('S3_BUCKET must be set when STORAGE=s3');
  return {
    kind,
    s3: {
      endpoint: env.S3_ENDPOINT || undefined,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    },
  };
}

import path from 'node:path';

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
  if (nodeEnv === 'production' && jwtSecret.length < 32) {
    throw new Error('JWT_SECRET must be set (at least 32 characters) when NODE_ENV=production');
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
  };
}

import type { IRouter } from 'express';
import type { DatabaseHealth, DatabaseStatus } from '../db/health';
import { BUILD_INFO } from '../platform/build-info';
import type { RedisHealth } from '../services/redis';

/** Where the gateway is in its life, as /readyz reports it: set by the caller once migrations are in, and by shutdown. */
export interface Lifecycle {
  migrated: boolean;
  shuttingDown: boolean;
}

/**
 * /readyz: ready = migrations done, the database answered a ping within the last second, not shutting
 * down. Redis is reported, never required (RedisHealth; docs/operations.md "Redis down").
 */
export function readiness(lifecycle: Lifecycle, database: DatabaseStatus, redis: string) {
  const { migrated, shuttingDown } = lifecycle;
  const ready = migrated && database.ok && !shuttingDown;
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? 'ready' : shuttingDown ? 'shutting down' : migrated ? 'unavailable' : 'starting',
      checks: { migrations: migrated ? 'done' : 'pending', database: database.detail, redis, shutting_down: shuttingDown },
    },
  };
}

/** GET /healthz (alive, and which build answers) and GET /readyz (`readiness`). */
export function mountHealth(
  router: IRouter,
  lifecycle: Lifecycle,
  database: Pick<DatabaseHealth, 'status'>,
  redis: Pick<RedisHealth, 'detail'> | undefined,
): void {
  // Which build answers, too: what an operator checks after an upgrade (docs/operations.md "Health").
  const alive = { status: 'ok', version: BUILD_INFO.version, commit: BUILD_INFO.commit };
  router.get('/healthz', (_req, res) => void res.json(alive));
  router.get('/readyz', (_req, res) => {
    const { status, body } = readiness(lifecycle, database.status(), redis?.detail() ?? 'not configured');
    res.status(status).json(body);
  });
}

import { readiness, type Lifecycle } from '../../src/http/health-routes';

const up = { ok: true, detail: 'ok' };
const down = { ok: false, detail: 'ping failed: connection refused' };
const at = (migrated: boolean, shuttingDown: boolean): Lifecycle => ({ migrated, shuttingDown });

describe('readiness (/readyz)', () => {
  it('is ready once migrated, with the database answering, until shutdown begins', () => {
    expect(readiness(at(true, false), up, 'not configured')).toEqual({
      status: 200,
      body: { status: 'ready', checks: { migrations: 'done', database: 'ok', redis: 'not configured', shutting_down: false } },
    });
  });

  it('says why not, with 503: starting (not migrated), unavailable (database), shutting down', () => {
    const status = (lifecycle: Lifecycle, database = up) => {
      const answer = readiness(lifecycle, database, 'ok');
      return [answer.status, answer.body.status];
    };
    expect(status(at(false, false))).toEqual([503, 'starting']);
    expect(status(at(true, false), down)).toEqual([503, 'unavailable']);
    expect(status(at(true, true))).toEqual([503, 'shutting down']);
    expect(status(at(false, true), down)).toEqual([503, 'shutting down']);
    expect(readiness(at(false, false), down, 'ok').body.checks).toEqual({ migrations: 'pending', database: down.detail, redis: 'ok', shutting_down: false });
  });

  it('reports Redis without requiring it', () => {
    const degraded = 'degraded (ping failed: timeout): rate limits counted and persisted queries cached per instance';
    expect(readiness(at(true, false), up, degraded)).toMatchObject({ status: 200, body: { checks: { redis: degraded } } });
  });
});

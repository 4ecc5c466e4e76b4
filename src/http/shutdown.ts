import type http from 'node:http';
import type { Redis } from 'ioredis';
import { closeRedis } from '../services/redis';
import type { Lifecycle } from './health-routes';
import type { HttpDrainer } from './http-drain';

/** How long a stopping gateway waits for WebSocket clients to answer its close frame before cutting them. */
export const WS_CLOSE_MS = 2000;

interface Stops {
  stop(): Promise<void>;
}

/** What a gateway closes when it stops, each as much of it as stopping uses. */
export interface GatewayParts {
  lifecycle: Lifecycle;
  /** Subscriptions and the change feed's listening connection (absent in a worker). */
  live: { subscriptions: { close(timeoutMs: number): Promise<void> }; listener: { close(): Promise<void> } } | undefined;
  drainer: Pick<HttpDrainer, 'drain'>;
  apollo: Stops;
  health: Stops;
  redisHealth: Stops | undefined;
  metricsServer: http.Server | undefined;
  redis: Redis | undefined;
}

/**
 * Stops a gateway: answers the requests already received (bounded by `timeoutMs`), then stops Apollo,
 * the health checks, the metrics listener and Redis. Returns the connections cut at the bound and the
 * new ones that never sent a request.
 */
export async function stopGateway(parts: GatewayParts, timeoutMs: number): Promise<{ cut: number; silent: number }> {
  const { live, metricsServer } = parts;
  parts.lifecycle.shuttingDown = true;
  // WebSockets first, with 1001 (going away): their clients reconnect to another instance while HTTP drains.
  await live?.subscriptions.close(Math.min(timeoutMs, WS_CLOSE_MS));
  await live?.listener.close();
  const drained = await parts.drainer.drain(timeoutMs);
  await parts.apollo.stop();
  await parts.health.stop();
  await parts.redisHealth?.stop();
  if (metricsServer?.listening) await new Promise((resolve) => metricsServer.close(resolve));
  if (parts.redis) await closeRedis(parts.redis);
  return drained;
}

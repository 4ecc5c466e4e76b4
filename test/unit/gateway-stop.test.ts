import type http from 'node:http';
import { WS_CLOSE_MS, stopGateway, type GatewayParts } from '../../src/http/shutdown';

/** Parts that record the order they are stopped in. */
function parts(withLive: boolean) {
  const order: string[] = [];
  const step = (name: string) => async () => void order.push(name);
  const closeSubscriptions = jest.fn(step('subscriptions'));
  const drain = jest.fn(async () => (order.push('http'), { cut: 1, silent: 2 }));
  const metricsServer = { listening: true, close: (done: () => void) => (order.push('metrics listener'), done()) } as unknown as http.Server;
  const gateway: GatewayParts = {
    lifecycle: { migrated: true, shuttingDown: false },
    live: withLive ? { subscriptions: { close: closeSubscriptions }, listener: { close: step('change feed listener') } } : undefined,
    drainer: { drain },
    apollo: { stop: step('apollo') },
    health: { stop: step('database health') },
    redisHealth: { stop: step('redis health') },
    metricsServer,
    redis: undefined,
  };
  return { gateway, order, closeSubscriptions, drain };
}

describe('stopGateway', () => {
  it('closes WebSockets first (bounded), then drains HTTP, then stops Apollo, the health checks and the metrics listener', async () => {
    const { gateway, order, closeSubscriptions, drain } = parts(true);
    expect(await stopGateway(gateway, 30_000)).toEqual({ cut: 1, silent: 2 });
    expect(gateway.lifecycle.shuttingDown).toBe(true);
    expect(order).toEqual(['subscriptions', 'change feed listener', 'http', 'apollo', 'database health', 'redis health', 'metrics listener']);
    expect(closeSubscriptions).toHaveBeenCalledWith(WS_CLOSE_MS);
    expect(drain).toHaveBeenCalledWith(30_000);
  });

  it('gives WebSockets no longer than the whole bound, and needs none (a worker)', async () => {
    const short = parts(true);
    await stopGateway(short.gateway, 500);
    expect(short.closeSubscriptions).toHaveBeenCalledWith(500);
    const worker = parts(false);
    await stopGateway(worker.gateway, 500);
    expect(worker.order).toEqual(['http', 'apollo', 'database health', 'redis health', 'metrics listener']);
  });
});

// First: tracing must patch http, express, graphql and Prisma before they are loaded.
import { stopTracing } from './platform/tracing';
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createGateway } from './app';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from './platform/config';
import { BUILD_INFO } from './platform/build-info';
import { databaseTimeouts, openDatabase, withTimeout } from './db/database';
import { StartupRefused, prepareDatabase } from './db/prepare';
import { createLogger } from './platform/logger';
import { createServices } from './services';
import { createPushSender } from './services/push/factory';
import { PushOutbox } from './services/push/outbox';

/**
 * Starts the gateway: listens at once (/healthz), then prepares the database (migrations, demo data,
 * the production checks: see prepareDatabase), then reports ready (/readyz) and serves the API.
 * ROLE splits the work: `api` serves the API and starts no background job (any number behind a load
 * balancer), `worker` runs the background jobs (push outbox, audit sealer and retention) and serves
 * only health and metrics, `all` does both. Several workers may run at once: the outbox claims with
 * SKIP LOCKED on the database's clock, the sealer takes an advisory lock.
 *
 * SIGTERM/SIGINT: /readyz turns 503 at once while everything else is served for SHUTDOWN_GRACE_MS
 * (so a load balancer stops sending traffic), then the server stops accepting, answers every request
 * already received (bounded by SHUTDOWN_TIMEOUT_MS), closes the database and exits 0.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { format: config.logFormat, env: config.env });
  try {
    await start(config, logger);
  } catch (err) {
    // A refusal is the operator's to fix: one line saying why; anything else keeps its stack.
    if (err instanceof StartupRefused) logger.fatal(err.message);
    else logger.fatal({ err }, 'start-up failed');
    process.exit(1);
  }
}

async function start(config: Config, logger: Logger): Promise<void> {
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    readUrls: config.databaseReadUrls,
    listenUrl: config.databaseListenUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    timeouts: databaseTimeouts(config),
    logger,
  });
  logger.info({ database: db.kind, dataDir: db.kind === 'pglite' ? config.dataDir : undefined, readReplicas: db.replicas.length }, 'database opened');
  const services = createServices(db, config, logger);
  const gateway = await createGateway(config, db, services, logger);
  // Push notifications: the outbox worker, started once the database is ready.
  const pushOutbox = new PushOutbox(db.prisma, createPushSender(config.firebaseCredentials, logger), logger, {
    maxAttempts: config.pushMaxAttempts,
    batchSize: config.pushBatchSize,
    sendTimeoutMs: config.pushSendTimeoutMs,
  });
  await new Promise<void>((resolve) => gateway.server.listen(config.port, resolve));
  const { port } = gateway.server.address() as AddressInfo;
  logger.info(
    { port, role: config.role, version: BUILD_INFO.version, commit: BUILD_INFO.commit, node: BUILD_INFO.nodeVersion },
    config.role === 'worker'
      ? `listening on http://localhost:${port} (worker: /healthz, /readyz, /metrics only)`
      : `listening on http://localhost:${port} (GraphQL /graphql, REST /api/v1)`,
  );
  const { metricsServer } = gateway;
  if (metricsServer) {
    await new Promise<void>((resolve) => metricsServer.listen(config.metricsPort, resolve));
    logger.info({ port: config.metricsPort }, 'metrics on their own port (/metrics)');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: not ready, still serving');
    gateway.beginShutdown();
    await new Promise((resolve) => setTimeout(resolve, config.shutdownGraceMs));
    logger.info('shutting down: draining requests');
    const drained = await gateway.stop(config.shutdownTimeoutMs);
    if (drained.cut || drained.silent) logger.warn(drained, 'shutting down: connections closed without an answer');
    await pushOutbox.stop();
    await services.audit.stop();
    // An unreachable database must not hold the exit: closing is bounded too.
    await withTimeout(db.close(), config.dbConnectTimeoutMs + 1000).catch((err: unknown) => logger.warn({ err }, 'database did not close cleanly'));
    await stopTracing();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await prepareDatabase(db, config, logger);
  gateway.setReady(true);
  const jobs: string[] = [];
  if (config.role !== 'api') {
    pushOutbox.start(config.pushWorkerIntervalMs);
    services.audit.start(config.auditSealIntervalMs, config.auditRetentionDays, logger);
    if (config.pushWorkerIntervalMs > 0) jobs.push('push outbox');
    if (config.auditSealIntervalMs > 0) jobs.push('audit sealer');
  }
  logger.info({ role: config.role, jobs }, 'ready');
}

main().catch((err: unknown) => {
  // A bad configuration value is one readable line (the variable, the problem, the expected form).
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

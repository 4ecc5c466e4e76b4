// First: tracing must patch http, express, graphql and Prisma before they are loaded.
import { stopTracing } from './tracing';
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createGateway } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { prepareDatabase } from './db/prepare';
import { createLogger } from './logger';
import { createServices } from './services';
import { createPushSender } from './services/push/factory';
import { PushOutbox } from './services/push/outbox';

/**
 * Starts the gateway: listens at once (/healthz), then migrates and loads demo data, then reports
 * ready (/readyz) and serves the API. SIGTERM/SIGINT drain in-flight requests and close the database.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { format: config.logFormat, env: config.env });
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  logger.info({ database: db.kind, dataDir: db.kind === 'pglite' ? config.dataDir : undefined }, 'database opened');
  const services = createServices(db.prisma, config, logger);
  const gateway = await createGateway(config, db, services, logger);
  // Push notifications: the outbox worker, started once the database is ready.
  const pushOutbox = new PushOutbox(db.prisma, createPushSender(config.firebaseCredentials, logger), logger, { maxAttempts: config.pushMaxAttempts });
  await new Promise<void>((resolve) => gateway.server.listen(config.port, resolve));
  const { port } = gateway.server.address() as AddressInfo;
  logger.info({ port }, `listening on http://localhost:${port} (GraphQL /graphql, REST /api/v1)`);
  if (gateway.metricsServer) {
    await new Promise<void>((resolve) => gateway.metricsServer!.listen(config.metricsPort, resolve));
    logger.info({ port: config.metricsPort }, 'metrics on their own port (/metrics)');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests');
    gateway.setReady(false);
    await gateway.stop();
    await pushOutbox.stop();
    await services.audit.stop();
    await db.close();
    await stopTracing();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await prepareDatabase(db, config, logger);
  gateway.setReady(true);
  pushOutbox.start(config.pushWorkerIntervalMs);
  services.audit.start(config.auditSealIntervalMs, config.auditRetentionDays, logger);
  logger.info('ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

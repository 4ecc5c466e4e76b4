import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { PrismaInstrumentation } from '@prisma/instrumentation';

/** Probes and scrapes would be most of the traces and say nothing. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Starts the OpenTelemetry SDK with the HTTP, Express, GraphQL and Prisma instrumentations, and pino's
 * for trace ids in log lines. The exporter, its protocol (http/protobuf by default), headers, sampler
 * and service name come from the standard OTEL_* variables; metrics and logs stay with Prometheus and
 * stdout unless OTEL_METRICS_EXPORTER / OTEL_LOGS_EXPORTER ask otherwise.
 */
export function startTracing(): NodeSDK {
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'investment-gateway',
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.has((req.url ?? '').split('?')[0]) }),
      new ExpressInstrumentation(),
      // Trivial resolvers (a property read) would add a span per field of every list item.
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true }),
      new PrismaInstrumentation(),
      // trace_id and span_id on each log line written inside a span: from a log line to its trace.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  sdk.start();
  return sdk;
}

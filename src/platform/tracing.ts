/**
 * OpenTelemetry tracing, on only when OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set.
 *
 * Instrumentations patch modules as they are loaded, so this module must run before express,
 * graphql, http and the Prisma client are: main.ts imports it first (or preload it with
 * `node --require ./dist/src/platform/tracing.js`). When tracing is off, the SDK is not even loaded (it costs
 * about a second of start-up), and nothing is patched.
 */
import type { NodeSDK } from '@opentelemetry/sdk-node';

const enabled = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

/** Whether spans are recorded: compiled execution (src/graphql/compiled-execution.ts) steps aside for the GraphQL instrumentation. */
export const tracingEnabled = enabled;

// A synchronous require on purpose: the instrumentations must be registered before main's imports run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk: NodeSDK | undefined = enabled ? (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracing() : undefined;

/** Exports the spans still buffered; main calls it at shutdown. */
export function stopTracing(): Promise<void> {
  return sdk ? sdk.shutdown() : Promise.resolve();
}

import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { eventually } from './eventually';
import { budget } from './time-budget';

/** What a graphql-ws client saw: results per subscription, errors, and how its socket closed. */
export interface LiveClient {
  client: Client;
  /** The first close of the socket (code, reason), once it happened. */
  closed: { code: number; reason: string } | undefined;
  acknowledged: boolean;
  /** Subscribes; the answer collects every `next` payload and the `error`, if any. `extensions`: e.g. a persisted query's id. */
  subscribe<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, extensions?: Record<string, unknown>): Subscription<T>;
  dispose(): Promise<void>;
}

export interface Subscription<T> {
  results: Array<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>;
  error: Array<{ message: string; extensions?: Record<string, unknown> }> | undefined;
  completed: boolean;
  stop(): void;
}

/** A graphql-ws client (the real protocol implementation) on `url`, never retrying: each test sees what one socket did. */
export function liveClient(url: string, token: string | undefined, connectionParams?: Record<string, unknown>): LiveClient {
  const state: LiveClient = {
    client: undefined as unknown as Client,
    closed: undefined,
    acknowledged: false,
    subscribe<T>(query: string, variables?: Record<string, unknown>, extensions?: Record<string, unknown>) {
      const sub: Subscription<T> = { results: [], error: undefined, completed: false, stop: () => undefined };
      sub.stop = state.client.subscribe<T>(
        { query, variables, extensions },
        {
          next: (value) => void sub.results.push(value as Subscription<T>['results'][number]),
          error: (err) => {
            // A close event (the socket went) is reported through `closed`; only GraphQL errors here.
            sub.error = Array.isArray(err) ? (err as Subscription<T>['error']) : [{ message: String((err as Error).message ?? err) }];
          },
          complete: () => void (sub.completed = true),
        },
      );
      return sub;
    },
    dispose: () => state.client.dispose() as Promise<void>,
  };
  state.client = createClient({
    url,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: connectionParams ?? (token === undefined ? {} : { authorization: `Bearer ${token}` }),
    on: {
      connected: () => void (state.acknowledged = true),
      closed: (event) => {
        const e = event as { code: number; reason: string };
        state.closed ??= { code: e.code, reason: String(e.reason) };
      },
    },
    onNonLazyError: () => undefined,
  });
  return state;
}

/** Waits until the client's socket closed; answers its close code. */
export async function closeCode(c: LiveClient, boundMs = budget(10_000)): Promise<number> {
  await eventually(async () => c.closed !== undefined, boundMs);
  return c.closed!.code;
}

/** A raw WebSocket speaking graphql-transport-ws: for frames no well-behaved client sends. */
export function rawSocket(url: string): { ws: WebSocket; messages: unknown[]; closed: Promise<{ code: number; reason: string }>; opened: Promise<void> } {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  const messages: unknown[] = [];
  ws.on('message', (data) => {
    try {
      messages.push(JSON.parse(String(data)));
    } catch {
      messages.push(String(data));
    }
  });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  return { ws, messages, closed, opened };
}

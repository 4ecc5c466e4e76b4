import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { FirebasePushSender, type MessagingLike } from './firebase-sender';
import { LogPushSender } from './log-sender';
import type { PushSender } from './sender';

/** A Firebase service account (the JSON file the console hands out). */
export type ServiceAccountJson = Record<string, unknown> & { project_id?: string };

/** FIREBASE_CREDENTIALS is the service-account JSON itself or the path of a file holding it. */
export function readFirebaseCredentials(value: string): ServiceAccountJson {
  const text = value.trim().startsWith('{') ? value : readFileSync(value, 'utf8');
  return JSON.parse(text) as ServiceAccountJson;
}

/** The real Messaging: firebase-admin is loaded only when credentials are configured. */
function firebaseMessaging(credentials: ServiceAccountJson): MessagingLike {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cert, initializeApp } = require('firebase-admin/app') as typeof import('firebase-admin/app');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { getMessaging } = require('firebase-admin/messaging') as typeof import('firebase-admin/messaging');
  // A named app: several gateways in one process (tests) must not collide on the default app.
  const app = initializeApp({ credential: cert(credentials as Parameters<typeof cert>[0]) }, `push-${credentials.project_id ?? 'app'}-${Date.now()}`);
  return getMessaging(app);
}

/** Firebase when credentials are configured, else the log. `messagingFor` is replaced in tests. */
export function createPushSender(
  firebaseCredentials: string | undefined,
  logger: Logger,
  messagingFor: (c: ServiceAccountJson) => MessagingLike = firebaseMessaging,
): PushSender {
  if (!firebaseCredentials) return new LogPushSender(logger);
  return new FirebasePushSender(messagingFor(readFirebaseCredentials(firebaseCredentials)));
}

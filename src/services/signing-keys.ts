import { createHash } from 'node:crypto';

/**
 * The secrets behind access tokens and download links (JWT_SECRET, JWT_SECRET_PREVIOUS): new ones are
 * made with `current`; during a rotation those made with `previous` are still accepted
 * (docs/operations.md, "Rotating JWT_SECRET").
 */
export interface SigningSecrets {
  current: string;
  previous?: string;
}

/** A secret and the key id (`kid`) that names it in token headers. */
export interface SigningKey {
  kid: string;
  secret: string;
}

/**
 * The key id of a secret: a labelled hash, cut short. It tells which secret made a token without
 * revealing anything usable about it (the secrets are ≥ 32 random characters in production).
 */
export function keyId(secret: string): string {
  return createHash('sha256').update(`investment-platform/key-id\0${secret}`).digest('base64url').slice(0, 12);
}

/** Current first, then the previous one if any. */
export function signingKeys(secrets: SigningSecrets): SigningKey[] {
  return [secrets.current, ...(secrets.previous === undefined ? [] : [secrets.previous])].map((secret) => ({ kid: keyId(secret), secret }));
}

/**
 * The keys to try for a token whose header names `kid`: that one key (none when no key has that id);
 * every key for a token without one (made before key ids existed).
 */
export function keysFor<K extends { kid: string }>(keys: readonly K[], kid: unknown): K[] {
  return kid === undefined ? [...keys] : keys.filter((k) => k.kid === kid);
}

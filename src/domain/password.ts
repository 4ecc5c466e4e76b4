import { hash, verify } from '@node-rs/argon2';

// Argon2id (memory-hard) via @node-rs/argon2: prebuilt binaries shipped in the registry packages,
// no install script to approve. Parameters are the library's OWASP-aligned defaults.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** The `password` field error when its confirmation differs (Laravel's `confirmed` rule), else none. */
export function confirmationErrors(password: string, confirmation: string): { password?: string[] } {
  return password === confirmation ? {} : { password: ['The password field confirmation does not match.'] };
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

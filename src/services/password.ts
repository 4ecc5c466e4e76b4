import { hash, verify } from '@node-rs/argon2';

// Argon2id (memory-hard) via @node-rs/argon2: prebuilt binaries shipped in the registry packages,
// no install script to approve. Parameters are the library's OWASP-aligned defaults.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

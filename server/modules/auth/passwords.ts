import { hash, verify } from '@node-rs/argon2';

// argon2id is the library's default algorithm; the parameters are its defaults (≈ 10–25 ms a hash here).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verified against when the user does not exist, so an unknown username costs as long as a wrong password. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash('not-a-real-password-just-for-timing');
  return dummyHash;
}

// Argon2id (the library default) with OWASP's minimum parameters.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// The native module is loaded at the first login or sign-up, not with every page render (issue 8: memory).
const argon2 = () => import('@node-rs/argon2');

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return (await argon2()).verify(passwordHash, password).catch(() => false);
}

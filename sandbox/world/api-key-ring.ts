import { createHash, timingSafeEqual } from 'node:crypto';

interface StoredKey {
  /** SHA-256 of the key; the key itself is never kept. */
  readonly hash: Buffer;
  readonly personId: string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The API keys of every organization, kept as hashes like a real service would. */
export class ApiKeyRing {
  private keys: StoredKey[] = [];

  add(key: string, personId: string): void {
    this.keys.push({ hash: sha256(key), personId });
  }

  /**
   * The person a presented key acts as, plus a stable id for the key (its hash in hex) for
   * per-key rate limits. Every stored hash is compared in constant time and the loop never
   * stops early, so the answer time says nothing about how close a guess was.
   */
  find(presented: string): { personId: string; keyId: string } | undefined {
    const hash = sha256(presented);
    let match: StoredKey | undefined;
    for (const stored of this.keys) {
      if (timingSafeEqual(stored.hash, hash) && !match) match = stored;
    }
    return match && { personId: match.personId, keyId: match.hash.toString('hex') };
  }

  revokeAllOf(personId: string): void {
    this.keys = this.keys.filter((key) => key.personId !== personId);
  }
}

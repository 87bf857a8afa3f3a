import { Inject, Injectable } from '@nestjs/common';
import { JWK, JWTPayload, KeyLike, SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify } from 'jose';
import { CLOCK, Clock, newId } from '@app/common';
import { VisitorClaims } from '../domain/visitor-claims';
import { SigningKeysRepository } from './signing-keys.repository';

const ALGORITHM = 'ES256';
/** Imported keys kept in memory; a key never changes once stored, so the cache needs no invalidation. */
const CACHE_SIZE = 1000;

interface LoadedKey {
  kid: string;
  privateKey: KeyLike;
  publicKey: KeyLike;
  publicJwk: JWK;
}

/**
 * Signs visitor tokens with the organization's own ES256 key pair, generated and stored the
 * first time the organization needs one.
 */
@Injectable()
export class VisitorTokenSigner {
  private readonly cache = new Map<string, LoadedKey>();

  constructor(
    private readonly keys: SigningKeysRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async sign(claims: VisitorClaims): Promise<string> {
    const key = await this.keyOf(claims.organization, true);
    return new SignJWT(claims as unknown as JWTPayload).setProtectedHeader({ alg: ALGORITHM, kid: key!.kid, typ: 'JWT' }).sign(key!.privateKey);
  }

  /** The public half (JWK with `kid`, `alg`, `use`) that verifies the organization's tokens; null before its first token. */
  async publicJwk(organizationId: string): Promise<JWK | null> {
    return (await this.keyOf(organizationId, false))?.publicJwk ?? null;
  }

  /** The claims of a token this organization signed and that has not expired; throws otherwise. */
  async verify(organizationId: string, token: string): Promise<VisitorClaims> {
    const key = await this.keyOf(organizationId, false);
    if (!key) throw new Error('this organization has never signed a visitor token');
    const { payload } = await jwtVerify(token, key.publicKey, { algorithms: [ALGORITHM], currentDate: this.clock.now() });
    if (payload.organization !== organizationId) throw new Error('the token was issued for another organization');
    return payload as unknown as VisitorClaims;
  }

  private async keyOf(organizationId: string, create: boolean): Promise<LoadedKey | null> {
    const cached = this.cache.get(organizationId);
    if (cached) return cached;
    let stored = await this.keys.find(organizationId);
    if (!stored) {
      if (!create) return null;
      const pair = await generateKeyPair(ALGORITHM, { extractable: true });
      const kid = newId();
      stored = await this.keys.insertOrGet({
        organizationId,
        kid,
        algorithm: ALGORITHM,
        publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg: ALGORITHM, use: 'sig' },
        privateJwk: { ...(await exportJWK(pair.privateKey)), kid, alg: ALGORITHM },
        createdAt: this.clock.now(),
      });
    }
    const loaded: LoadedKey = {
      kid: stored.kid,
      privateKey: (await importJWK(stored.privateJwk as unknown as JWK, stored.algorithm)) as KeyLike,
      publicKey: (await importJWK(stored.publicJwk as unknown as JWK, stored.algorithm)) as KeyLike,
      publicJwk: stored.publicJwk as unknown as JWK,
    };
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(organizationId, loaded);
    return loaded;
  }
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, InvalidError } from '@app/common';

/**
 * Secrets at rest (Git Sync credentials, sites' visitor signing keys): AES-256-GCM with the server's SECRETS_KEY (32 random
 * bytes, base64: `openssl rand -base64 32`). Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const key = config.secretsKey ? Buffer.from(config.secretsKey, 'base64') : null;
    this.key = key && key.length === 32 ? key : null;
  }

  /** `what` names the secret in the refusal when the server has no key (a 400 the caller can act on). */
  seal(plain: string, what = 'Git credentials'): string {
    if (!this.key) throw new InvalidError(`This server cannot store ${what}: SECRETS_KEY is not set`);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    if (!this.key) throw new Error('SECRETS_KEY is not set: stored secrets cannot be read');
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1') throw new Error('Unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

// Standard Webhooks signing: `whsec_` secrets (24 random bytes, base64) and the `v1,` signature,
// base64 HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>" keyed with the secret's
// base64-decoded bytes. Secrets must be kept to sign every delivery; with
// SIGHTLINE_WEBHOOK_SECRET_KEY set they are stored AES-256-GCM encrypted (`enc:v1:iv.tag.data`).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const SEALED = 'enc:v1:';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/** The `webhook-signature` header value for one attempt. */
export function signPayload(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
}

function keyOf(keyBase64: string): Buffer {
  return Buffer.from(keyBase64.trim(), 'base64');
}

/** The secret as stored: encrypted when a key is configured, else as issued. */
export function sealSecret(secret: string, keyBase64: string | undefined): string {
  if (!keyBase64?.trim()) return secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(keyBase64), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${SEALED}${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${data.toString('base64')}`;
}

/** The secret to sign with. An encrypted secret without the key (or with another key) throws. */
export function openSecret(stored: string, keyBase64: string | undefined): string {
  if (!stored.startsWith(SEALED)) return stored;
  if (!keyBase64?.trim()) throw new Error('a webhook secret is stored encrypted but SIGHTLINE_WEBHOOK_SECRET_KEY is not set');
  const [iv, tag, data] = stored.slice(SEALED.length).split('.');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(keyBase64), Buffer.from(iv!, 'base64'));
  decipher.setAuthTag(Buffer.from(tag!, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data!, 'base64')), decipher.final()]).toString('utf8');
}

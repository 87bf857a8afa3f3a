/** What other modules may use of the events module: the outbox's consumers, the signature scheme and the retry curve of deliveries. */
export { OutboxConsumers } from './application/outbox-consumers';
export type { OutboxConsumer, OutboxEvent } from './application/outbox-consumers';
export { SIGNATURE_HEADER, signatureHeader, verifySignature } from './domain/webhook-signature';
export { retryDelayMs } from './domain/webhook';

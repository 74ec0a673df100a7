import { createHmac, timingSafeEqual } from 'node:crypto';
import { sessionSecretKeys } from '../auth/session-secret';
import type { AppConfig } from '../config/config';

export type ReplyAddressConfig = Pick<AppConfig, 'SESSION_SECRET' | 'SESSION_SECRET_PREVIOUS' | 'DATA_DIR' | 'INBOUND_EMAIL_DOMAIN'>;

/** The key of reply addresses, derived from a session secret (never the secret itself). */
export function replyAddressKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('ppr:ticket-reply-address:v1').digest();
}

const SIGNATURE_LENGTH = 20;
const LOCAL_PART = /^reply\+(\d{1,10})-([0-9a-f]{20})$/;

function signature(key: Buffer, ticketId: number): string {
  return createHmac('sha256', key).update(`ticket:${ticketId}`).digest('hex').slice(0, SIGNATURE_LENGTH);
}

/**
 * The address a customer's email reply goes to: `reply+{ticket}-{signature}@INBOUND_EMAIL_DOMAIN`, the signature an
 * HMAC of the ticket id under a key derived from SESSION_SECRET (80 bits: an address cannot be guessed for another
 * ticket, and nothing is stored per email). Lower case only: some mail systems lower-case what they forward.
 * During a secret rotation, addresses signed with SESSION_SECRET_PREVIOUS are still accepted.
 */
export class ReplyAddresses {
  private readonly keys: () => Promise<[Buffer, ...Buffer[]]>;

  constructor(private readonly config: ReplyAddressConfig) {
    this.keys = sessionSecretKeys(config, replyAddressKey);
  }

  /** Whether replies by email are set up (INBOUND_EMAIL_DOMAIN). */
  get enabled(): boolean {
    return this.config.INBOUND_EMAIL_DOMAIN !== undefined;
  }

  async address(ticketId: number): Promise<string | null> {
    const domain = this.config.INBOUND_EMAIL_DOMAIN;
    if (domain === undefined) return null;
    const [current] = await this.keys();
    return `reply+${ticketId}-${signature(current, ticketId)}@${domain}`;
  }

  /** The ticket an address is the reply address of, or null (another domain, a forged or broken address). */
  async ticketOf(address: string): Promise<number | null> {
    const domain = this.config.INBOUND_EMAIL_DOMAIN;
    const at = address.lastIndexOf('@');
    if (domain === undefined || at < 0 || address.slice(at + 1).toLowerCase() !== domain) return null;
    const match = LOCAL_PART.exec(address.slice(0, at).toLowerCase());
    if (!match) return null;
    const ticketId = Number(match[1]);
    if (!Number.isSafeInteger(ticketId) || ticketId < 1 || ticketId > 2_147_483_647) return null;
    const given = Buffer.from(match[2]!, 'utf8');
    for (const key of await this.keys()) {
      if (timingSafeEqual(given, Buffer.from(signature(key, ticketId), 'utf8'))) return ticketId;
    }
    return null;
  }
}

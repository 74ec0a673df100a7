import { type MigrationSet, runMigrations } from '@ppr/projections';
import type { Kysely, Migration } from 'kysely';
import * as ticketIds from './migrations/20261121000000_ticket_ids';
import * as customerAccounts from './migrations/20261122000000_customer_accounts';
import * as mailAndSubscriptions from './migrations/20261122000100_mail_and_subscriptions';
import * as supportRequestIdempotency from './migrations/20261122100000_support_request_idempotency';
import * as hashedSessions from './migrations/20261122100100_hashed_sessions';
import * as verifiedEmailOwner from './migrations/20261122100500_verified_email_owner';
import * as payments from './migrations/20261123000000_payments';
import * as adminUsers from './migrations/20261124000000_admin_users';
import * as engineers from './migrations/20261124000100_engineers';
import * as notifications from './migrations/20261125000000_notifications';
import * as contactAndCampaigns from './migrations/20261126000000_contact_and_campaigns';
import * as pageViews from './migrations/20261127000000_page_views';
import * as integrations from './migrations/20261128000000_integrations';
import * as lz4MailBodies from './migrations/20261129000000_lz4_mail_bodies';
import * as refundRequests from './migrations/20261130000000_refund_requests';
import * as oneResendAtATime from './migrations/20261201000000_one_resend_at_a_time';
import * as staleCampaignSends from './migrations/20261202000000_stale_campaign_sends';
import * as outboxClaims from './migrations/20261207000000_outbox_claims';
import * as emailReplyTo from './migrations/20261207200000_email_reply_to';
import * as ticketConversation from './migrations/20261208000000_ticket_conversation';
import * as simulatedGatewayEvents from './migrations/20261208000100_simulated_gateway_events';

/** The write side's own tables (accounts, sessions, ids). Read tables have their own migrations. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121000000_ticket_ids': ticketIds,
  '20261122000000_customer_accounts': customerAccounts,
  '20261122000100_mail_and_subscriptions': mailAndSubscriptions,
  '20261122100000_support_request_idempotency': supportRequestIdempotency,
  '20261122100100_hashed_sessions': hashedSessions,
  '20261122100500_verified_email_owner': verifiedEmailOwner,
  '20261123000000_payments': payments,
  '20261124000000_admin_users': adminUsers,
  '20261124000100_engineers': engineers,
  '20261125000000_notifications': notifications,
  '20261126000000_contact_and_campaigns': contactAndCampaigns,
  '20261127000000_page_views': pageViews,
  '20261128000000_integrations': integrations,
  '20261129000000_lz4_mail_bodies': lz4MailBodies,
  '20261130000000_refund_requests': refundRequests,
  '20261201000000_one_resend_at_a_time': oneResendAtATime,
  '20261202000000_stale_campaign_sends': staleCampaignSends,
  '20261207000000_outbox_claims': outboxClaims,
  '20261207200000_email_reply_to': emailReplyTo,
  '20261208000000_ticket_conversation': ticketConversation,
  '20261208000100_simulated_gateway_events': simulatedGatewayEvents,
};

const WRITE_SIDE: MigrationSet = { migrations: MIGRATIONS, tableName: 'app_migration', label: 'Database' };

/** Brings the write side's tables to the latest migration, in `schema` (default: the current one). */
export async function migrateWriteSide(db: Kysely<unknown>, schema?: string): Promise<void> {
  await runMigrations(db, WRITE_SIDE, schema);
}

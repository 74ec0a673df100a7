import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AdminModule } from '../admin/admin.module';
import { TicketsModule } from '../tickets/tickets.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ProcessingModule } from '../processing/processing.module';
import { CustomerTicketFeedController } from './customer-ticket-feed.controller';
import { EventFeedController } from './event-feed.controller';
import { IntegrationKeyGuard } from './integration-key.guard';
import { OpenStreams } from './integration-keys';
import { IntegrationKeysController } from './integration-keys.controller';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSecretsKey } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';

/**
 * Integrations: the public event schema (contracts/src/integrations.ts) served as an SSE feed to API keys and
 * to admins' screens, and as signed webhooks from a durable outbox. See README, "Integrations".
 */
@Module({
  imports: [CqrsModule, EventStoreModule, AdminModule, TicketsModule, ProcessingModule],
  controllers: [IntegrationKeysController, EventFeedController, CustomerTicketFeedController, WebhooksController],
  providers: [OpenStreams, IntegrationKeyGuard, WebhookDispatcher, WebhookSecretsKey],
})
export class IntegrationsModule {}

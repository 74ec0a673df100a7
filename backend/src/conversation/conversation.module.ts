import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthModule } from '../auth/auth.module';
import { ProjectionsModule } from '../projections/projections.module';
import { AdminTicketMessagesController } from './admin-ticket-messages.controller';
import { ConversationService } from './conversation.service';
import { InboundMailServer } from './inbound/inbound-mail.server';
import { TicketMessagesController } from './ticket-messages.controller';

/** The ticket conversation (docs/architecture.md, "Conversation"): messages, attachments, read markers. */
@Module({
  imports: [CqrsModule, AuthModule, ProjectionsModule],
  controllers: [TicketMessagesController, AdminTicketMessagesController],
  providers: [ConversationService, InboundMailServer],
  exports: [ConversationService, InboundMailServer],
})
export class ConversationModule {}

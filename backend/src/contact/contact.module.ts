import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { ContactController } from './contact.controller';
import { ContactService } from './contact.service';

/** Contact messages: POST /api/contact (stored, emailed to staff) and GET /api/admin/contact-messages. */
@Module({
  imports: [AuthModule, AdminModule, MailModule],
  controllers: [ContactController],
  providers: [ContactService],
})
export class ContactModule {}

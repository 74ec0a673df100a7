import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Patch,
  Post,
  UseGuards,
} from '@nestjs/common';
import {
  type ApiError,
  type CreatedWebhook,
  type CreateWebhook,
  createWebhookSchema,
  integrationMessages,
  type UpdateWebhook,
  updateWebhookSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@ppr/contracts';
import { AdminGuard } from '../admin/admin.guard';
import { NoBodyPipe } from '../common/no-body.pipe';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { idParam } from './integration-keys.controller';
import { checkUrl } from './safe-http';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSecretsKey } from './webhook-secrets';
import * as webhooks from './webhooks.repository';

const notFound = (): NotFoundException => new NotFoundException({ message: integrationMessages.webhookNotFound } satisfies ApiError);

/** Admins register webhook endpoints, read their delivery log and send a delivery again. */
@Controller('admin/webhooks')
@UseGuards(AdminGuard)
export class WebhooksController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dispatcher: WebhookDispatcher,
    private readonly secretsKey: WebhookSecretsKey,
  ) {}

  @Get()
  list(): Promise<WebhookEndpoint[]> {
    return webhooks.listEndpoints(this.db.pool);
  }

  @Post()
  @HttpCode(201)
  async create(@Body(new ZodBodyPipe(createWebhookSchema)) body: CreateWebhook): Promise<CreatedWebhook> {
    await this.acceptableUrl(body.url);
    return webhooks.insertEndpoint(this.db.pool, body, await this.secretsKey.current());
  }

  @Get(':id')
  async get(@Param('id') raw: string): Promise<WebhookEndpoint> {
    const endpoint = await webhooks.findEndpoint(this.db.pool, idParam(raw, integrationMessages.webhookNotFound));
    if (!endpoint) throw notFound();
    return endpoint;
  }

  @Patch(':id')
  async update(@Param('id') raw: string, @Body(new ZodBodyPipe(updateWebhookSchema)) body: UpdateWebhook): Promise<WebhookEndpoint> {
    const id = idParam(raw, integrationMessages.webhookNotFound);
    if (body.url !== undefined) await this.acceptableUrl(body.url);
    const updated = await webhooks.updateEndpoint(this.db.pool, id, body);
    if (!updated) throw notFound();
    if (body.enabled) this.dispatcher.wake();
    return updated;
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') raw: string): Promise<void> {
    if (!(await webhooks.deleteEndpoint(this.db.pool, idParam(raw, integrationMessages.webhookNotFound)))) throw notFound();
  }

  @Get(':id/deliveries')
  async deliveries(@Param('id') raw: string): Promise<WebhookDelivery[]> {
    const id = idParam(raw, integrationMessages.webhookNotFound);
    if (!(await webhooks.findEndpoint(this.db.pool, id))) throw notFound();
    return webhooks.listDeliveries(this.db.pool, id);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  async redeliver(
    @Param('id') raw: string,
    @Param('deliveryId') rawDelivery: string,
    @Body(new NoBodyPipe()) _body: undefined,
  ): Promise<WebhookDelivery> {
    const id = idParam(raw, integrationMessages.webhookNotFound);
    const deliveryId = idParam(rawDelivery, integrationMessages.deliveryNotFound);
    const delivery = await webhooks.redeliver(this.db.pool, id, deliveryId, this.config.WEBHOOK_RETRY_HOURS);
    if (!delivery) throw new NotFoundException({ message: integrationMessages.deliveryNotFound } satisfies ApiError);
    this.dispatcher.wake();
    return delivery;
  }

  /** Checked again at every send (addresses change); refusing here tells the admin at once. */
  private async acceptableUrl(url: string): Promise<void> {
    const checked = await checkUrl(url, { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_URLS });
    if (checked.ok) return;
    const text = {
      invalid: integrationMessages.webhookUrlInvalid,
      unresolvable: integrationMessages.webhookUrlUnresolvable,
      private: integrationMessages.webhookUrlPrivate,
    }[checked.reason];
    throw new BadRequestException({ message: text, errors: [{ path: 'url', message: text }] } satisfies ApiError);
  }
}

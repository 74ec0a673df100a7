import { Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, UseGuards } from '@nestjs/common';
import {
  type ApiError,
  type CreatedIntegrationKey,
  type CreateIntegrationKey,
  createIntegrationKeySchema,
  type IntegrationKeySummary,
  integrationMessages,
  ticketIdParamSchema,
} from '@ppr/contracts';
import { AdminGuard } from '../admin/admin.guard';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { insertKey, listKeys, OpenStreams, revokeKey } from './integration-keys';

/** A numeric id in a path (positive, 32-bit), or the given 404. */
export function idParam(raw: string, notFound: string): number {
  const parsed = ticketIdParamSchema.safeParse(raw);
  if (!parsed.success) throw new NotFoundException({ message: notFound } satisfies ApiError);
  return parsed.data;
}

/** Admins create, list and revoke the keys integrators read the event feed with. */
@Controller('admin/integration-keys')
@UseGuards(AdminGuard)
export class IntegrationKeysController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly streams: OpenStreams,
  ) {}

  @Get()
  list(): Promise<IntegrationKeySummary[]> {
    return listKeys(this.db.pool);
  }

  @Post()
  @HttpCode(201)
  create(@Body(new ZodBodyPipe(createIntegrationKeySchema)) body: CreateIntegrationKey): Promise<CreatedIntegrationKey> {
    return insertKey(this.db.pool, body.name, body.scopes);
  }

  @Delete(':id')
  @HttpCode(204)
  async revoke(@Param('id') raw: string): Promise<void> {
    const id = idParam(raw, integrationMessages.keyNotFound);
    if (!(await revokeKey(this.db.pool, id))) throw new NotFoundException({ message: integrationMessages.keyNotFound } satisfies ApiError);
    this.streams.revoke(id);
  }
}

import {
  Body,
  ConflictException,
  Controller,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import {
  adminMessages,
  type ApiError,
  type CreateEngineer,
  createEngineerSchema,
  type Engineer,
  engineerListQuerySchema,
  ticketIdParamSchema,
  type UpdateEngineer,
  updateEngineerSchema,
} from '@ppr/contracts';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { AdminGuard } from './admin.guard';
import * as engineers from './engineers.repository';
import { ZodQueryPipe } from '../common/zod-query.pipe';

/** An engineer id in a path: the same rule as ticket ids (positive, 32-bit); anything else is not found. */
function engineerId(raw: string): number {
  const parsed = ticketIdParamSchema.safeParse(raw);
  if (!parsed.success) throw new NotFoundException({ message: adminMessages.engineerNotFound } satisfies ApiError);
  return parsed.data;
}

/** The engineers table of SPEC section 3: list, create, deactivate (and reactivate). Assignment is a ticket command. */
@Controller('admin/engineers')
@UseGuards(AdminGuard)
export class EngineersController {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  @Get()
  list(@Query(new ZodQueryPipe(engineerListQuerySchema)) query: { active?: 'true' | 'false' }): Promise<Engineer[]> {
    return engineers.listEngineers(this.db.pool, query.active === undefined ? undefined : query.active === 'true');
  }

  @Post()
  @HttpCode(201)
  async create(@Body(new ZodBodyPipe(createEngineerSchema)) body: CreateEngineer): Promise<Engineer> {
    const created = await engineers.insertEngineer(this.db.pool, body);
    if (!created) throw new ConflictException({ message: adminMessages.engineerEmailTaken } satisfies ApiError);
    return created;
  }

  @Patch(':id')
  async update(@Param('id') id: string, @Body(new ZodBodyPipe(updateEngineerSchema)) body: UpdateEngineer): Promise<Engineer> {
    const updated = await engineers.setEngineerActive(this.db.pool, engineerId(id), body.isActive);
    if (!updated) throw new NotFoundException({ message: adminMessages.engineerNotFound } satisfies ApiError);
    return updated;
  }
}

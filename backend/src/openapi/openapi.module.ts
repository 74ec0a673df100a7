import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';

/** GET /api/openapi.json (generated from the contracts) and the browsable page at /api/docs. */
@Module({ controllers: [OpenApiController] })
export class OpenApiModule {}

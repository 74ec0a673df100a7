import { Inject, Injectable, Logger } from '@nestjs/common';
import { formatPosition, type Position, type ProjectionName } from '@ppr/projections';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import type { ProcessorProgress } from '../processing/processor.port';
import { PROCESSING } from '../processing/processing.tokens';

/**
 * Read-your-writes: a command endpoint answers after the projections behind the caller's next screen have
 * applied what it appended, so an immediate GET shows the change. The wait is bounded: past it the
 * endpoint answers anyway (the change shows up moments later).
 */
@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger(ReadYourWrites.name);

  constructor(
    @Inject(PROCESSING) private readonly processing: ProcessorProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async waitFor(projections: readonly ProjectionName[], position: Position | null): Promise<void> {
    if (!position) return;
    const reached = await this.processing.waitFor(projections, position, this.config.READ_YOUR_WRITES_TIMEOUT_MS);
    if (!reached) {
      this.logger.warn(
        `Projections ${projections.join(', ')} did not reach ${formatPosition(position)} within ${this.config.READ_YOUR_WRITES_TIMEOUT_MS} ms`,
      );
    }
  }
}

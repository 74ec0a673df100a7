import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './database';
import { DATABASE, KYSELY } from './database.tokens';

/**
 * The database the app was started with. It is opened and migrated before Nest starts (see
 * `bootstrap/prepare-storage.ts`), so nothing here depends on provider resolution order; the module only
 * hands it out and closes it last.
 */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  static forRoot(db: Database): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE, useValue: db },
        { provide: KYSELY, useValue: new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) }) },
      ],
      exports: [DATABASE, KYSELY],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
  }
}

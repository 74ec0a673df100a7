import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Kysely, PostgresDialect } from 'kysely';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { type Database, openDatabase } from './database';
import { migrateWriteSide } from './migrate';

export const DATABASE = Symbol('DATABASE');
export const KYSELY = Symbol('KYSELY');

@Global()
@Module({
  providers: [
    {
      provide: DATABASE,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<Database> => {
        const logger = new Logger('Database');
        const db = await openDatabase(config);
        logger.log(
          db.kind === 'embedded'
            ? `Embedded PostgreSQL (PGlite) with data in ${config.DATA_DIR}`
            : `PostgreSQL at ${new URL(config.DATABASE_URL!).host}${config.DATABASE_SCHEMA ? `, schema ${config.DATABASE_SCHEMA}` : ''}`,
        );
        return db;
      },
    },
    {
      provide: KYSELY,
      inject: [DATABASE, APP_CONFIG],
      useFactory: async (db: Database, config: AppConfig): Promise<Kysely<unknown>> => {
        const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db.pool }) });
        await migrateWriteSide(kysely, config.DATABASE_SCHEMA);
        return kysely;
      },
    },
  ],
  exports: [DATABASE, KYSELY],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
  }
}

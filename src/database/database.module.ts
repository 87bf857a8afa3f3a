import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '@app/common';
import { dataSourceOptions } from './data-source-options';

/**
 * PostgreSQL through TypeORM. Processes that own the schema (API, operator CLI) apply pending
 * migrations at start unless MIGRATIONS_RUN=false; the worker never does, so two processes
 * starting together do not race on the schema.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: { applyMigrations: boolean }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.databaseUrl, config.dbPoolSize, {
              directUrl: config.databaseDirectUrl,
              preparedStatements: config.dbPreparedStatements,
            }),
            migrationsRun: options.applyMigrations && config.migrationsRun,
            logging: false,
            // The process checked the connection before building the app (bootstrap/database-ready.ts);
            // this only bounds a database that goes away in between.
            retryAttempts: config.dbConnectAttempts,
            retryDelay: config.dbConnectRetryMs,
          }),
        }),
      ],
    };
  }
}

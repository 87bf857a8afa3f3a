import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '@app/common';
import { dataSourceOptions } from './data-source-options';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl, config.dbPoolSize),
        migrationsRun: config.migrationsRun,
        logging: false,
      }),
    }),
  ],
})
export class DatabaseModule {}

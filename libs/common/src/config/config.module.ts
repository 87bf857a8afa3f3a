import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, loadConfig } from './config.schema';

/** Provides the validated AppConfig. Tests pass overrides instead of mutating process.env. */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(overrides: Partial<AppConfig> = {}): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [{ provide: APP_CONFIG, useFactory: (): AppConfig => ({ ...loadConfig(process.env), ...overrides }) }],
      exports: [APP_CONFIG],
    };
  }
}

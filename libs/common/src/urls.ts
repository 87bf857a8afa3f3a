import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from './config/config.schema';

/** Builds every `urls` field from PUBLIC_URL so clients can follow them. */
@Injectable()
export class Urls {
  private readonly base: string;
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.base = config.publicUrl;
  }
  api(path: string): string {
    return `${this.base}/v1${path}`;
  }
  app(path: string): string {
    return `${this.base}/app${path}`;
  }
  root(path: string): string {
    return `${this.base}${path}`;
  }
}

export * from './contract';
export * from './database';
export * from './test-app';
export * from './redis-keys';
export * from './services';
export * from './pgbouncer';
export * from './s3-server';
export * from './redis-cluster';

export * from './contract';
export * from './database';
export * from './test-app';

import { buildTemplateDatabase } from './database';

export default async function globalSetup(): Promise<void> {
  await buildTemplateDatabase();
}

import { buildTemplateDatabase, testRunId } from './database';
import { startTestServices } from './services';

export default async function globalSetup(): Promise<void> {
  testRunId(); // sets TEST_RUN_ID for the workers jest forks after this
  await startTestServices();
  await buildTemplateDatabase();
}

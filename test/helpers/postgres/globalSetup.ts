import type { TestProject } from 'vitest/node';
import { startThrowawayCluster } from './throwawayCluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway cluster's superuser URL (TEST_DATABASE=postgres runs only). */
    postgresAdminUrl: string;
  }
}

/**
 * With TEST_DATABASE=postgres, one throwaway PostgreSQL cluster serves the whole run; each test
 * app gets a database of its own in it (test/helpers/testDatabase.ts). Otherwise nothing: the
 * tests use SQLite in their temp DATA_DIR.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.TEST_DATABASE !== 'postgres') return undefined;
  const cluster = await startThrowawayCluster();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}

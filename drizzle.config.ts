import { defineConfig } from 'drizzle-kit';

// Generates forward-only SQL migrations from the schema; committed migrations are never edited.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/infrastructure/database/sqlite/schema.ts',
  out: './src/infrastructure/database/migrations',
});

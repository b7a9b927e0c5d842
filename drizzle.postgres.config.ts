import { defineConfig } from 'drizzle-kit';

// PostgreSQL's migrations, generated from its schema like SQLite's (drizzle.config.ts); committed ones are never edited.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/infrastructure/database/postgres/schema.ts',
  out: './src/infrastructure/database/postgres/migrations',
});

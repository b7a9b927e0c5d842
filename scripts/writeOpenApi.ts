/**
 * Writes the OpenAPI document of the HTTP API, generated from the route schemas, to
 * `docs/openapi.json`. A test checks the committed file is current. Run with `npm run openapi`
 * (`tsx scripts/writeOpenApi.ts`). The running server serves the same document at `/docs/json`.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { createServices } from '../src/createServices.js';
import { openApiJson } from '../src/http/openApi.js';

export const openApiFile = resolve(import.meta.dirname, '../docs/openapi.json');

/** The document as `docs/openapi.json` should hold it, from an app built on throwaway services. */
export async function generateOpenApiJson(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-openapi-'));
  try {
    const services = await createServices(loadConfig({ DATA_DIR: dataDir }), { processMetrics: false });
    try {
      const app = await buildApp({ services, logger: false });
      try {
        await app.ready();
        return openApiJson(app);
      } finally {
        await app.close();
      }
    } finally {
      await services.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await generateOpenApiJson();
  mkdirSync(dirname(openApiFile), { recursive: true });
  writeFileSync(openApiFile, text);
  console.log(`wrote ${openApiFile}`);
}

import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../../config/configSchema.js';

/**
 * pino settings for the service. Request logs carry method, path, status and timing only:
 * no headers (tokens, API keys, cookies), no query strings, no bodies. Redaction is a second
 * line of defence for anything logged by mistake under these names.
 */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'req.headers["x-local-user-id"]',
        'headers.authorization', 'headers["x-api-key"]', '*.token', '*.apiKey', '*.password', '*.text', '*.transcript',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
        method: request.method,
        path: request.url.split('?')[0],
        remoteAddress: request.ip,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
}

import { packageVersion } from '../packageRoot.js';

/** One signed webhook request: the Standard Webhooks headers' values and the exact body they sign. */
export interface SignedWebhook {
  url: string;
  /** `webhook-id`: `msg_…`. */
  messageId: string;
  /** `webhook-timestamp`: Unix seconds of this attempt. */
  timestampSeconds: number;
  /** `webhook-signature`: `v1,<base64>`. */
  signature: string;
  body: string;
}

/**
 * What came of one attempt: the receiver's status code (null when none came) and, unless it was
 * a 2xx, a short reason for the admin page, never the response body. `stopped`: the dispatcher
 * stopped mid-send (not an attempt).
 */
export type PostResult = { stopped: true } | { stopped: false; statusCode: number | null; error: string | null };

/**
 * POSTs a signed webhook and waits at most `timeoutMs` for its answer. Redirects are not followed
 * (a 3xx is a failed attempt: the admin set the URL, a receiver does not move it), and the
 * answer's body is not read.
 */
export async function postWebhook(webhook: SignedWebhook, options: { timeoutMs: number; signal: AbortSignal }): Promise<PostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': `Callscope/${packageVersion}`,
        'webhook-id': webhook.messageId,
        'webhook-timestamp': String(webhook.timestampSeconds),
        'webhook-signature': webhook.signature,
      },
      body: webhook.body,
      redirect: 'manual',
      signal: AbortSignal.any([timeout, options.signal]),
    });
    await response.body?.cancel().catch(() => undefined);
    const statusCode = response.status;
    if (statusCode >= 200 && statusCode < 300) return { stopped: false, statusCode, error: null };
    // undici answers a manual redirect as it came; a browser-like fetch would give type `opaqueredirect`, status 0.
    if (response.type === 'opaqueredirect' || (statusCode >= 300 && statusCode < 400)) return { stopped: false, statusCode: statusCode || null, error: `redirect not followed (HTTP ${statusCode})` };
    return { stopped: false, statusCode, error: `HTTP ${statusCode}` };
  } catch (error) {
    if (options.signal.aborted) return { stopped: true };
    if (timeout.aborted) return { stopped: false, statusCode: null, error: `no answer within ${Math.round(options.timeoutMs / 1000)} s` };
    return { stopped: false, statusCode: null, error: networkFailure(error) };
  }
}

/** A network error's code (`ECONNREFUSED`, `ENOTFOUND`, …): its message may name the URL, which may carry a token. */
function networkFailure(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return code ? `could not connect (${code})` : 'the request failed before an answer came';
}

/** Whether a server answered a probe, and in how long; or why not, for an operator. */
export type ProbeOutcome = { answering: true; answerMs: number } | { answering: false; problem: string };

/**
 * Whether the server at `url` answers at all: any HTTP status counts (an endpoint that takes
 * only POST says 404 or 405, which is an answer). A DNS failure or a refused connection fails at
 * once, a server that drops packets after `timeoutMs`. Redirects are not followed, and nothing
 * but the request line and its headers is sent.
 */
export async function probeHttp(url: string, options: { method?: 'GET' | 'HEAD'; timeoutMs: number }): Promise<ProbeOutcome> {
  const started = Date.now();
  try {
    const response = await fetch(url, { method: options.method ?? 'GET', redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
    await response.body?.cancel();
    return { answering: true, answerMs: Date.now() - started };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return { answering: false, problem: `no answer within ${options.timeoutMs} ms` };
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return { answering: false, problem: `cannot be reached (${typeof cause?.code === 'string' ? cause.code : (error as Error).message})` };
  }
}

import type { Config } from '../../config/configSchema.js';
import { probeHttp } from './probeHttp.js';
import type { CheckResult, ReadinessCheck } from './readinessChecks.js';

export interface InferenceServersCheckOptions {
  /** Longest wait for a server to answer, ms. Defaults to `2000`. */
  timeoutMs?: number;
  /** How long a probe's result is reused, ms (readiness is polled often; the servers are not to be hammered). Defaults to `10000`. */
  cacheMs?: number;
}

type InferenceConfig = Pick<Config, 'TRANSCRIPTION_PROVIDER' | 'LLM_PROVIDER'> & Partial<Pick<Config, 'TRANSCRIPTION_URL' | 'LLM_URL'>>;

/**
 * The site's inference servers answer (`TRANSCRIPTION_PROVIDER=openai`, `LLM_PROVIDER=openai`):
 * DOWN while one does not, since every call would fail or wait for its retry. "Answers" means
 * any HTTP answer to a GET of its URL (an endpoint that takes only POST says 404 or 405, which
 * is an answer); a refused connection, a DNS failure or silence past `timeoutMs` is not. No key
 * is sent. Undefined when no server is configured (nothing to check).
 */
export function inferenceServersCheck(config: InferenceConfig, options: InferenceServersCheckOptions = {}): ReadinessCheck | undefined {
  // The providers are chosen at start-up; a server's URL may change while the service runs (the
  // admin page's settings), so it is read at every probe.
  const servers = [
    ...(config.TRANSCRIPTION_PROVIDER !== 'local' ? [{ name: 'transcription', setting: 'TRANSCRIPTION_URL', url: () => config.TRANSCRIPTION_URL }] : []),
    ...(config.LLM_PROVIDER === 'openai' ? [{ name: 'languageModel', setting: 'LLM_URL', url: () => config.LLM_URL }] : []),
  ];
  if (servers.length === 0) return undefined;
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 10_000;
  let cached: { at: number; result: Promise<CheckResult> } | undefined;

  const probeAll = async (): Promise<CheckResult> => {
    // loadConfig refuses these providers without a URL.
    const probes = await Promise.all(servers.map(async ({ url, ...server }) => ({ ...server, url: url()!, ...(await probeHttp(url()!, { timeoutMs })) })));
    const detail = Object.fromEntries(probes.map((server) => [server.name, server.answering
      ? { host: new URL(server.url).host, status: 'answering', answerMs: server.answerMs }
      : { host: new URL(server.url).host, status: 'not answering', problem: `${server.setting} (${new URL(server.url).host}): ${server.problem}` }]));
    return { status: probes.every((server) => server.answering) ? 'UP' : 'DOWN', detail };
  };
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > cacheMs) cached = { at: now, result: probeAll() };
    return cached.result;
  };
}

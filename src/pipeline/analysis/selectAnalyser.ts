import { existsSync } from 'node:fs';
import type { Config } from '../../config/configSchema.js';
import { resolveModelPath } from '../../infrastructure/health/readinessChecks.js';
import type { Analyser } from './Analyser.js';
import { createBuiltinAnalyser } from './builtin/builtinAnalyser.js';
import { createLlmAnalyser, createServerLlmAnalyser } from './llm/createLlmAnalyser.js';

/**
 * The analyser the configuration asks for: `ANALYSER=llm` or `builtin`, or for `auto` the LLM
 * when it is there (the site's chat server is configured, `LLM_PROVIDER=openai`, or the local
 * model file is installed) and the built-in one otherwise. The LLM runs where `LLM_PROVIDER`
 * says. Chosen when the pipeline is created (at start-up): installing a model takes a restart,
 * as loading one does anyway.
 */
export function selectAnalyser(
  config: Pick<Config, 'ANALYSER' | 'LLM_MODEL' | 'LLM_CONTEXT_SIZE' | 'GPU' | 'LLM_PROVIDER' | 'LLM_TIMEOUT_SECONDS'> & Partial<Pick<Config, 'LLM_URL' | 'LLM_MODEL_NAME' | 'LLM_API_KEY'>>,
): Analyser {
  const modelPath = resolveModelPath(config.LLM_MODEL);
  const onServer = config.LLM_PROVIDER === 'openai';
  const useLlm = config.ANALYSER === 'llm' || (config.ANALYSER === 'auto' && (onServer || existsSync(modelPath)));
  if (!useLlm) return createBuiltinAnalyser();
  if (onServer) {
    // loadConfig refuses openai without a URL and a model name.
    return createServerLlmAnalyser({
      contextSize: config.LLM_CONTEXT_SIZE,
      server: {
        url: config.LLM_URL!, modelName: config.LLM_MODEL_NAME!, timeoutMs: config.LLM_TIMEOUT_SECONDS * 1000,
        ...(config.LLM_API_KEY ? { apiKey: config.LLM_API_KEY } : {}),
      },
    });
  }
  return createLlmAnalyser({ modelPath, contextSize: config.LLM_CONTEXT_SIZE, gpu: config.GPU === 'off' ? false : 'auto' });
}

import { existsSync } from 'node:fs';
import type { Config } from '../../config/configSchema.js';
import { resolveModelPath } from '../../infrastructure/health/readinessChecks.js';
import type { Analyser } from './Analyser.js';
import { createBuiltinAnalyser } from './builtin/builtinAnalyser.js';
import { createLlmAnalyser } from './llm/createLlmAnalyser.js';

/**
 * The analyser the configuration asks for: `ANALYSER=llm` or `builtin`, or for `auto` the LLM
 * when its model file is installed and the built-in one otherwise. Chosen when the pipeline is
 * created (at start-up): installing a model takes a restart, as loading one does anyway.
 */
export function selectAnalyser(config: Pick<Config, 'ANALYSER' | 'LLM_MODEL' | 'LLM_CONTEXT_SIZE' | 'GPU'>): Analyser {
  const modelPath = resolveModelPath(config.LLM_MODEL);
  const useLlm = config.ANALYSER === 'llm' || (config.ANALYSER === 'auto' && existsSync(modelPath));
  if (!useLlm) return createBuiltinAnalyser();
  return createLlmAnalyser({ modelPath, contextSize: config.LLM_CONTEXT_SIZE, gpu: config.GPU === 'off' ? false : 'auto' });
}

import { existsSync } from 'node:fs';
import type { Config } from '../../config/configSchema.js';
import { resolveModelPath } from '../../infrastructure/health/readinessChecks.js';
import type { Analyser } from './Analyser.js';
import { createBuiltinAnalyser } from './builtin/builtinAnalyser.js';
import { createHybridAnalyser, createServerHybridAnalyser, type HybridDecision } from './hybrid/createHybridAnalyser.js';
import { createLlmAnalyser, createServerLlmAnalyser } from './llm/createLlmAnalyser.js';

type AnalyserMode = Exclude<Config['ANALYSER'], 'auto'>;

/**
 * What `ANALYSER=auto` runs when a language model is there: the mode that measured best on the
 * unseen evaluation calls with the real models at hand (`npm run eval:analysis`, BENCHMARKS.md;
 * the README says why). With SmolLM2-135M and Gemma 3 270M every mode in which the model
 * decides something was worse than the rules on every judge set (hybrid: items fully right
 * 62 → 33–38 %, titles 57 → 34 %), so the rules stay; a site with a larger model sets
 * `ANALYSER=hybrid` after measuring it.
 */
export const modeWhenModelInstalled: AnalyserMode = 'builtin';

/**
 * The analyser the configuration asks for: `ANALYSER=llm`, `hybrid` or `builtin`, or for
 * `auto` {@link modeWhenModelInstalled} when a model is there (the site's chat server is
 * configured, `LLM_PROVIDER=openai`, or the local model file is installed) and the built-in one
 * otherwise. The model runs where `LLM_PROVIDER` says. Chosen when the pipeline is created (at
 * start-up): installing a model takes a restart, as loading one does anyway.
 */
export function selectAnalyser(
  config: Pick<Config, 'ANALYSER' | 'LLM_MODEL' | 'LLM_CONTEXT_SIZE' | 'GPU' | 'LLM_PROVIDER' | 'LLM_TIMEOUT_SECONDS'> & Partial<Pick<Config, 'LLM_URL' | 'LLM_MODEL_NAME' | 'LLM_API_KEY'>>,
  /** What the hybrid's model decides (the evaluation tries other splits). Defaults to `defaultHybridDecisions`. */
  hybridDecides?: readonly HybridDecision[],
): Analyser {
  const modelPath = resolveModelPath(config.LLM_MODEL);
  const onServer = config.LLM_PROVIDER === 'openai';
  const mode: AnalyserMode = config.ANALYSER === 'auto'
    ? (onServer || existsSync(modelPath) ? modeWhenModelInstalled : 'builtin')
    : config.ANALYSER;
  if (mode === 'builtin') return createBuiltinAnalyser();
  if (onServer) {
    // loadConfig refuses openai without a URL and a model name.
    const server = {
      url: config.LLM_URL!, modelName: config.LLM_MODEL_NAME!, timeoutMs: config.LLM_TIMEOUT_SECONDS * 1000,
      ...(config.LLM_API_KEY ? { apiKey: config.LLM_API_KEY } : {}),
    };
    return mode === 'hybrid'
      ? createServerHybridAnalyser({ contextSize: config.LLM_CONTEXT_SIZE, server, ...(hybridDecides ? { decides: hybridDecides } : {}) })
      : createServerLlmAnalyser({ contextSize: config.LLM_CONTEXT_SIZE, server });
  }
  const local = {
    modelPath, contextSize: config.LLM_CONTEXT_SIZE, gpu: config.GPU === 'off' ? false as const : 'auto' as const, timeoutMs: config.LLM_TIMEOUT_SECONDS * 1000,
  };
  return mode === 'hybrid' ? createHybridAnalyser({ ...local, ...(hybridDecides ? { decides: hybridDecides } : {}) }) : createLlmAnalyser(local);
}

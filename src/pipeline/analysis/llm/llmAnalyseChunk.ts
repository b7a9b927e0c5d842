import { loadLlmRuntime, type LlmGeneration, type LlmGenerationRequest, type LlmModelSettings } from './LlmRuntime.js';

export interface LlmAnalyseChunkInput extends LlmGenerationRequest {
  model: LlmModelSettings;
}

export type LlmAnalyseChunkOutput = LlmGeneration;

/**
 * The worker task behind the LLM analyser: one chunk's prompt answered under its generation
 * schema by the thread's model (loaded once per thread). The answer comes back as text; the
 * analyser reads and repairs it on its own thread.
 */
export async function llmAnalyseChunk({ model, ...request }: LlmAnalyseChunkInput): Promise<LlmAnalyseChunkOutput> {
  const runtime = await loadLlmRuntime(model);
  return runtime.generate(request);
}

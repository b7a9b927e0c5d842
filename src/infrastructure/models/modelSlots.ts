import { ConfigSchema, type Config } from '../../config/configSchema.js';
import type { ModelSlot } from './manifestSchema.js';
import { resolveModelPath } from './resolveModelPath.js';

export type ModelConfigKey = 'SEGMENTATION_MODEL' | 'WHISPER_MODEL' | 'EMBEDDING_MODEL' | 'VAD_MODEL' | 'LLM_MODEL';

export interface ModelSlotInfo {
  slot: ModelSlot;
  configKey: ModelConfigKey;
  /** The pipeline cannot run without it (readiness is DOWN while it is missing or damaged). */
  required: boolean;
}

/** Every model slot with its setting, in the order status lists them. */
export const modelSlots: readonly ModelSlotInfo[] = [
  { slot: 'segmentation', configKey: 'SEGMENTATION_MODEL', required: true },
  { slot: 'whisper', configKey: 'WHISPER_MODEL', required: true },
  { slot: 'embedding', configKey: 'EMBEDDING_MODEL', required: false },
  { slot: 'vad', configKey: 'VAD_MODEL', required: false },
  { slot: 'llm', configKey: 'LLM_MODEL', required: false },
];

/** What each slot's model is called in a call's `errorReason` and in readiness problems. */
export const modelSlotLabels: Readonly<Record<ModelSlot, string>> = {
  segmentation: 'speaker segmentation model',
  whisper: 'speech recognition model',
  embedding: 'speaker-embedding model',
  vad: 'voice activity model',
  llm: 'language model for call analysis',
};

export function slotInfo(slot: ModelSlot): ModelSlotInfo {
  return modelSlots.find((info) => info.slot === slot)!;
}

/** The slot's default path (`models/whisper.bin`…), as the configuration schema declares it. */
export function defaultModelFileOf(slot: ModelSlot): string {
  return String((ConfigSchema.properties[slotInfo(slot).configKey] as { default?: unknown }).default);
}

/** Where the slot's model is expected: the configured path, resolved from the install folder. */
export function configuredModelPath(config: Pick<Config, ModelConfigKey>, slot: ModelSlot): string {
  return resolveModelPath(config[slotInfo(slot).configKey]);
}

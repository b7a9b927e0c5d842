import { measureLevels, type LevelMeasurement, type MeasureLevelsInput } from '../../pipeline/cleanup/measureLevels.js';
import { diarizeRecording, type DiarizeRecordingInput } from '../../pipeline/diarization/diarizeRecording.js';
import type { Diarization } from '../../pipeline/speechTypes.js';
import { embedVoices, type EmbeddedVoices, type EmbedVoicesInput } from '../../pipeline/voice/embedVoices.js';
import { llmAnalyseChunk, type LlmAnalyseChunkInput, type LlmAnalyseChunkOutput } from '../../pipeline/analysis/llm/llmAnalyseChunk.js';

/**
 * The CPU-heavy tasks a stage may hand to the worker pool (`StageContext.runInWorker`):
 * name → input and output. Both cross the thread boundary by structured clone, so they are
 * plain data.
 */
export interface WorkerTasks {
  measureLevels: { input: MeasureLevelsInput; output: LevelMeasurement };
  diarize: { input: DiarizeRecordingInput; output: Diarization };
  embedVoices: { input: EmbedVoicesInput; output: EmbeddedVoices };
  llmAnalyseChunk: { input: LlmAnalyseChunkInput; output: LlmAnalyseChunkOutput };
}

export type WorkerTaskName = keyof WorkerTasks;

/** What a worker thread runs for each task; imported by the worker, never by the main thread's stages. */
export const workerTaskImplementations: {
  [Name in WorkerTaskName]: (input: WorkerTasks[Name]['input']) => Promise<WorkerTasks[Name]['output']>;
} = {
  measureLevels,
  diarize: (input) => diarizeRecording(input),
  embedVoices,
  llmAnalyseChunk,
};

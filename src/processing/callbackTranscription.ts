import { renameSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { postMultipart, serverMessageOf, transportFailure } from '../infrastructure/inference/inferenceRequests.js';
import { callObjectKeys, type ObjectStore } from '../infrastructure/storage/ObjectStore.js';
import type { CleanedAudio } from '../pipeline/cleanup/cleanAudio.js';
import type { Diarization, Transcription } from '../pipeline/speechTypes.js';
import type { StageContext } from '../pipeline/StageContext.js';
import { StageFailure } from '../pipeline/StageFailure.js';
import { modelNameOf, transcriptionRequestFields, type HttpTranscriptionOptions } from '../pipeline/transcription/transcribeOverHttp.js';
import { wordsFromVerboseJson } from '../pipeline/transcription/verboseJson.js';
import { TranscriptionJobs } from './TranscriptionJobs.js';

/**
 * Thrown by the transcription stage in callback mode once the provider has taken the job: the
 * run ends there, and the engine lets go of the call (no lease, no slot) until the callback.
 */
export class AwaitingCallback extends Error {
  constructor(readonly jobId: string) {
    super('waiting for the transcription provider\'s callback');
    this.name = 'AwaitingCallback';
  }
}

/** What a resumed run reads instead of running clean-up, diarization and transcription again. */
export interface ResumedSpeech {
  cleaned: CleanedAudio;
  diarization: Diarization;
  transcription: Transcription;
}

export interface CallbackTranscriptionSettings extends HttpTranscriptionOptions {
  /** `PUBLIC_URL` + `/api/callbacks/transcription`: where the provider answers. */
  callbackUrl: string;
}

/** Where a call waiting for its callback keeps what the resumed run needs: `calls/<id>/pending/`. */
export const pendingKey = (callId: string) => `${callObjectKeys.prefix(callId)}/pending`;
const transcriptionFile = 'transcription.json';

/**
 * `TRANSCRIPTION_PROVIDER=callback`: the provider takes the audio now and answers later, with a
 * signed callback. The first run keeps the cleaned audio and the diarization under
 * `calls/<id>/pending/`, records a job (its id is unguessable, new for every submission), and
 * submits the audio with `job_id` and `callback_url`; the callback route stores the transcript
 * there and puts the call back in the queue; the resumed run reads all three and goes on.
 */
export class CallbackTranscription {
  constructor(
    private readonly store: ObjectStore,
    private readonly jobs: TranscriptionJobs,
    private readonly settings: () => CallbackTranscriptionSettings,
    /** Whether a secret to verify callbacks with is configured: without one, no callback could ever be accepted. */
    private readonly hasSecret: () => Promise<boolean>,
  ) {}

  /**
   * The transcription stage of the first run: keeps what the resumed run needs, submits the job
   * and throws {@link AwaitingCallback}. A 4xx from the provider is `rejected`, a 5xx or network
   * error `transient` (the stage is retried once, with a new job). `prompt` (the call's names and
   * terms, see transcriptionPrompt.ts) goes as the openai provider sends it: `prompt`.
   */
  async submit(callId: string, cleaned: CleanedAudio, diarization: Diarization, context: StageContext, prompt?: string): Promise<never> {
    const settings = this.settings();
    if (!(await this.hasSecret())) {
      throw new StageFailure('unavailable', 'No secret for the transcription provider\'s callbacks is configured: generate one on the admin page (Settings, Inference) or set TRANSCRIPTION_WEBHOOK_SECRET, give it to the provider, and reprocess the call');
    }
    const folder = this.store.pathOf(pendingKey(callId));
    await mkdir(folder, { recursive: true });
    await copyFile(cleaned.monoPath, join(folder, 'cleaned.wav'));
    if (cleaned.stereoPath) await copyFile(cleaned.stereoPath, join(folder, 'stereo.wav'));
    const { monoPath: _mono, stereoPath: _stereo, ...cleanedFacts } = cleaned;
    await this.store.writeJson(`${pendingKey(callId)}/speech.json`, { cleaned: { ...cleanedFacts, stereo: cleaned.stereoPath !== undefined }, diarization });

    const jobId = TranscriptionJobs.newJobId();
    // Before the request: a fast provider may call back before it has answered it.
    await this.jobs.open(jobId, callId, Date.now());
    const host = new URL(settings.url).host;
    let answer;
    try {
      answer = await postMultipart(settings.url, {
        fields: [...transcriptionRequestFields(settings, prompt), ['job_id', jobId], ['callback_url', settings.callbackUrl]],
        file: { field: 'file', path: cleaned.monoPath, fileName: 'call.wav', contentType: 'audio/wav' },
        ...(settings.apiKey ? { headers: { authorization: `Bearer ${settings.apiKey}` } } : {}),
        timeoutMs: settings.timeoutMs,
        signal: context.signal,
      });
    } catch (error) {
      await this.jobs.end(jobId, 'failed', Date.now());
      if (context.signal.aborted) throw error;
      throw transportFailure('transcription server', host, error, 'TRANSCRIPTION_TIMEOUT_SECONDS');
    }
    if (answer.status < 200 || answer.status >= 300) {
      await this.jobs.end(jobId, 'failed', Date.now());
      const message = serverMessageOf(answer, [settings.apiKey]);
      const detail = `HTTP ${answer.status}${message ? `: ${message}` : ''}`;
      if (answer.status >= 400 && answer.status < 500) throw new StageFailure('rejected', `The transcription server at ${host} refused the call (${detail})`);
      throw new StageFailure('transient', `The transcription server at ${host} failed (${detail}); the call can be reprocessed`);
    }
    throw new AwaitingCallback(jobId);
  }

  /**
   * Writes a callback's transcript beside where the resumed run reads it; {@link commitTranscript}
   * puts it there (inside the transaction that accepts the callback, so that of two different
   * callbacks arriving at once only the accepted one's transcript is read), {@link discardTranscript}
   * drops it. Returns the staged file.
   */
  async stageTranscript(callId: string, verboseJson: string): Promise<string> {
    await mkdir(this.store.pathOf(pendingKey(callId)), { recursive: true });
    // In the store's temp folder (same filesystem; cleared at start-up), one file per callback.
    const staged = this.store.newTempPath('.json');
    await writeFile(staged, verboseJson);
    return staged;
  }

  /** Puts a staged transcript in place (a rename on the same filesystem: atomic, and fast enough for a transaction). */
  commitTranscript(callId: string, staged: string): void {
    renameSync(staged, join(this.store.pathOf(pendingKey(callId)), transcriptionFile));
  }

  async discardTranscript(staged: string): Promise<void> {
    await rm(staged, { force: true });
  }

  /** What the first run kept and the provider sent, or undefined when this is not a resumed run. */
  async resumed(callId: string): Promise<ResumedSpeech | undefined> {
    const folder = this.store.pathOf(pendingKey(callId));
    const verbose = await readFile(join(folder, transcriptionFile), 'utf8').catch(() => undefined);
    if (verbose === undefined) return undefined;
    const speech = JSON.parse(await readFile(join(folder, 'speech.json'), 'utf8')) as { cleaned: Omit<CleanedAudio, 'monoPath' | 'stereoPath'> & { stereo: boolean }; diarization: Diarization };
    const { stereo, ...facts } = speech.cleaned;
    const cleaned: CleanedAudio = { ...facts, monoPath: join(folder, 'cleaned.wav'), ...(stereo ? { stereoPath: join(folder, 'stereo.wav') } : {}) };
    const settings = this.settings();
    const read = wordsFromVerboseJson(verbose, { durationSeconds: cleaned.durationSeconds, configuredLanguage: settings.language });
    // The callback route accepted only verbose_json; one that names no language (with WHISPER_LANGUAGE=auto) is taken as English, whisper's default.
    const language = read.language ?? 'en';
    const { words } = read;
    // The model as the submission named it (the openai provider records the same).
    return { cleaned, diarization: speech.diarization, transcription: { language, words, provider: 'callback', model: modelNameOf(settings) ?? 'whisper.cpp-server' } };
  }

  /** Removes what a call kept while it waited (its run ended, one way or the other). */
  async forget(callId: string): Promise<void> {
    await this.store.remove(pendingKey(callId));
  }
}

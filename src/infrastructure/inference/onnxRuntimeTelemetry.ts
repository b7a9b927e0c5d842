/**
 * Turns off onnxruntime's telemetry. From 1.29 (onnxruntime-node 1.30 here) the official Linux
 * builds carry Microsoft's 1DS telemetry: a device id and a queue of events (session creations
 * with the model's file name, graph name and metadata, the OS, run counts) in
 * `~/.cache/Microsoft/DeveloperTools/.onnxruntime/`, uploaded to Microsoft whenever the machine
 * can reach it. Nothing of a call leaves the box, and neither does that. `ORT_DISABLE_TELEMETRY=1`,
 * set before the runtime initialises, is onnxruntime's full opt-out on Linux: no uploader, no
 * events, no device id, no cache (measured: `callscope diarize` then leaves no such folder).
 *
 * Imported for its effect by createOnnxSession, through which every session is made (onnxruntime-
 * node initialises the runtime with the first session, not when it is imported), and by the
 * worker pool before it starts its threads: the runtime reads the process's environment, which a
 * worker thread's `process.env` (its own copy) never reaches, so the main thread must set it.
 * Not a setting: an appliance that keeps data on the premises has no use for it.
 */
process.env.ORT_DISABLE_TELEMETRY = '1';

export {};

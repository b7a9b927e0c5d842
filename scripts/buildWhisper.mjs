#!/usr/bin/env node
/**
 * Builds whisper.cpp's `whisper-cli` and `whisper-server` from the sources bundled in the npm
 * package `nodejs-whisper` into `native/bin/` (static, so they need no shared library beside them).
 * `whisper-server` answers a site's own Callscope boxes (TRANSCRIPTION_URL=…/inference) or any
 * other client on the LAN, with its model loaded once. Runs during
 * `npm ci` (the `prepare` script, after the TypeScript build) and as `npm run build:native`.
 *
 * Plain Node, no TypeScript: it runs before anything else is built.
 *
 * - Skips when `native/bin/whisper-cli` exists and its stamp (`whisper-cli.stamp.json`) matches
 *   the bundled sources' version and content hash, the patches and the cmake flags, and both
 *   binaries are there; rebuilds otherwise.
 * - Builds a copy of the sources (`native/src/`) with {@link sourcePatches} applied, each a
 *   change whose reason it states; the bundled package itself is never written to.
 *   `--force` rebuilds anyway.
 * - cmake configure (Release, static, tests off) and build of the two targets `whisper-cli` and
 *   `whisper-server` with all cores. Both live in whisper.cpp's examples tree, so examples stay
 *   configured, but no other example is built.
 * - `GGML_NATIVE=ON`: the binary is tuned for the CPU of the box that builds it (AVX2, AVX-512…),
 *   which is right for an appliance that builds itself during install, and wrong for an image
 *   built on one machine and run on another: add `-DGGML_NATIVE=OFF` there (see docs/operations.md, "GPU image").
 * - `WHISPER_CMAKE_FLAGS` (split on whitespace) is appended to the configure flags, e.g.
 *   `WHISPER_CMAKE_FLAGS="-DGGML_CUDA=ON"` for the GPU image (Dockerfile.gpu).
 * - Quiet: cmake's and the compiler's output (whisper.cpp's own sources print hundreds of
 *   compiler warnings we cannot fix) goes to `native/build.log`; a failed step prints the log's
 *   last lines. `--verbose` streams it to the terminal instead.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageDir = join(root, 'node_modules', 'nodejs-whisper');
const sourceDir = join(packageDir, 'cpp', 'whisper.cpp');
/** The patched copy of the sources that is built. */
const patchedSourceDir = join(root, 'native', 'src');
const buildDir = join(root, 'native', 'build');
const binDir = join(root, 'native', 'bin');
/** The targets built, each copied to `native/bin/<target>`. */
const targets = ['whisper-cli', 'whisper-server'];
const stampPath = join(binDir, 'whisper-cli.stamp.json');
/** Written into the build folder after configure: a folder configured differently is wiped first. */
const buildStampPath = join(buildDir, 'callscope-configure.json');
/** Everything cmake and the compiler print, kept for when a build fails. */
const logPath = join(root, 'native', 'build.log');
/** Lines of the log shown when a step fails. */
const failureTailLines = 40;
const verbose = process.argv.includes('--verbose');

/** Folders of the bundled tree that are not build inputs: configure writes into `bindings/`, nodejs-whisper downloads into `models/`. */
const notSources = new Set(['bindings', 'models', 'samples', 'tests', '.git', '.github', 'build']);
/** Folders left out of the patched copy: not needed to build (configure reads `bindings/`, so it is copied). */
const notCopied = new Set(['models', 'samples', 'tests', '.git', '.github', 'build']);

/**
 * Changes to the bundled whisper.cpp (1.9.1) before it is built: `find` must occur exactly once
 * in `file`, or the build fails (a new version changed that code: look at it again).
 */
const sourcePatches = [
  {
    file: 'src/whisper.cpp',
    // whisper_full seeds the random generators of decoders 1…n at every call, but decoder 0's
    // only when the state is made. Its beam search draws its candidates from that generator even
    // at temperature 0 (as does the temperature fallback), so the persistent whisper-server,
    // whose state lives from one request to the next, continued the previous request's random
    // stream: the same audio gave other words on every request, and other words than whisper-cli
    // (a process per call, so always the first call). Seeded like the others (with its index, 0,
    // as the state is made), every call decodes as the first did.
    find: '    // TAGS: WHISPER_DECODER_INIT\n    for (int j = 1; j < n_decoders; j++) {\n',
    replace: '    // TAGS: WHISPER_DECODER_INIT\n    state->decoders[0].rng = std::mt19937(0); // Callscope: reseeded per call (scripts/buildWhisper.mjs)\n    for (int j = 1; j < n_decoders; j++) {\n',
  },
  {
    file: 'src/whisper.cpp',
    // With DTW (`-dtw`), each decoded window's tokens are aligned over its audio tokens (2 mel
    // frames, 20 ms, each), after a median filter 7 audio tokens wide that asserts it is
    // narrower than the window: a window of fewer than 8 audio tokens (under 160 ms, e.g. the
    // tail of a recording, or a short stretch of speech VAD kept) aborted the whole process
    // (WHISPER_ASSERT in median_filter), losing the call. Such a window is too short to align
    // anyway: DTW is skipped for it, its tokens keep t_dtw = -1 and their words take whisper's
    // token timestamps (wordsFromWhisperJson.ts).
    find: '                    whisper_exp_compute_token_level_timestamps_dtw(\n                            ctx, state, params, result_all.size() - n_segments, n_segments, seek, n_frames, 7, params.n_threads);\n',
    replace: '                    if (n_frames / 2 > 7) // Callscope: no DTW for a window narrower than its median filter (scripts/buildWhisper.mjs)\n                    whisper_exp_compute_token_level_timestamps_dtw(\n                            ctx, state, params, result_all.size() - n_segments, n_segments, seek, n_frames, 7, params.n_threads);\n',
  },
  {
    file: 'src/whisper.cpp',
    // The call's names, carried as the prompt before every 30 s window, often send whisper into
    // the mode it learnt from transcripts without timestamps: it reads the window as one
    // stretch of text and skips some of it, whisper.cpp counts a window without a timestamp as
    // failed, and decodes it again at 0.2 and 0.4 (five samples each, still with the prompt,
    // which fails the same way) until 0.6, where the prompt is dropped. With base on a 5-minute
    // call, 30 of its windows' decodes were such failures, three times the CPU of no prompt
    // (BENCHMARKS.md, "Where base's time goes"). So, when an initial prompt is carried, a window
    // that fails with it is decoded once more at the same temperature without it, and the
    // higher temperatures follow without it too.
    find: '    } else {\n        temperatures.push_back(params.temperature);\n    }\n',
    replace: '    } else {\n        temperatures.push_back(params.temperature);\n    }\n    // Callscope: a window that fails with the carried prompt is decoded again without it first (scripts/buildWhisper.mjs)\n    const bool retry_without_prompt = params.carry_initial_prompt && temperatures.size() > 1;\n    if (retry_without_prompt) temperatures.insert(temperatures.begin() + 1, params.temperature);\n',
  },
  {
    file: 'src/whisper.cpp',
    // The retry without the prompt (above) is skipped where there was none to drop: no prompt, or
    // whisper.cpp dropped it itself for the last half second of the audio.
    find: '        for (int it = 0; it < (int) temperatures.size(); ++it) {\n            const float t_cur = temperatures[it];\n',
    replace: '        for (int it = 0; it < (int) temperatures.size(); ++it) {\n            if (retry_without_prompt && it == 1 && prompt_past0.empty()) continue; // Callscope (scripts/buildWhisper.mjs)\n            const float t_cur = temperatures[it];\n',
  },
  {
    file: 'src/whisper.cpp',
    // From the retry on, the window is decoded without the prompt (above).
    find: '                if (params.n_max_text_ctx > 0 && t_cur < WHISPER_HISTORY_CONDITIONING_TEMP_CUTOFF) {\n',
    replace: '                if (params.n_max_text_ctx > 0 && t_cur < WHISPER_HISTORY_CONDITIONING_TEMP_CUTOFF && !(retry_without_prompt && it >= 1)) { // Callscope (scripts/buildWhisper.mjs)\n',
  },
];

const baseFlags = [
  '-DCMAKE_BUILD_TYPE=Release',
  '-DBUILD_SHARED_LIBS=OFF',
  '-DWHISPER_BUILD_TESTS=OFF',
  '-DWHISPER_BUILD_SERVER=ON',
  // Needed for the whisper-cli target; only the targets above are built.
  '-DWHISPER_BUILD_EXAMPLES=ON',
  '-DWHISPER_SDL2=OFF',
  '-DWHISPER_CURL=OFF',
  '-DGGML_NATIVE=ON',
];

function fail(message) {
  console.error(`\nbuild:native: ${message}\n`);
  process.exit(1);
}

/** Runs one build step with its output appended to the build log (or on the terminal with --verbose). */
function run(command, args) {
  appendFileSync(logPath, `\n$ ${command} ${args.join(' ')}\n`);
  const log = verbose ? undefined : openSync(logPath, 'a');
  const result = spawnSync(command, args, { stdio: verbose ? 'inherit' : ['ignore', log, log] });
  if (log !== undefined) closeSync(log);
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    const tail = verbose ? '' : `\n--- last lines of ${relative(root, logPath)} ---\n${readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-failureTailLines).join('\n')}\n---`;
    fail(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}).${tail}\nThe whole output is in ${relative(root, logPath)}.`);
  }
}

function commandWorks(command, args = ['--version']) {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

function checkTools() {
  if (!commandWorks('cmake')) {
    fail('cmake is not installed. It builds the speech recogniser (whisper.cpp).\n  Debian/Ubuntu: sudo apt-get install -y cmake g++\n  then run `npm run build:native`.');
  }
  const compiler = process.env.CXX || 'c++';
  if (!commandWorks(compiler) && !commandWorks('g++') && !commandWorks('clang++')) {
    fail('no C++ compiler found (c++, g++ or clang++). It builds the speech recogniser (whisper.cpp).\n  Debian/Ubuntu: sudo apt-get install -y g++ (or build-essential)\n  then run `npm run build:native`.');
  }
}

/** sha256 over the relative paths and contents of every source file, in a stable order. */
function hashSources(folder) {
  const hash = createHash('sha256');
  const walk = (current) => {
    const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (current === folder && notSources.has(entry.name)) continue;
        walk(path);
      } else if (entry.isFile()) {
        hash.update(relative(folder, path)).update('\0').update(readFileSync(path)).update('\0');
      }
    }
  };
  walk(folder);
  return hash.digest('hex');
}

/** `native/src/`: the bundled sources afresh, with {@link sourcePatches} applied. */
function copyPatchedSources() {
  rmSync(patchedSourceDir, { recursive: true, force: true });
  cpSync(sourceDir, patchedSourceDir, { recursive: true, filter: (path) => relative(sourceDir, path) === '' || !notCopied.has(relative(sourceDir, path)) });
  for (const patch of sourcePatches) {
    const path = join(patchedSourceDir, patch.file);
    const text = readFileSync(path, 'utf8');
    const found = text.split(patch.find).length - 1;
    if (found !== 1) fail(`the patch of ${patch.file} in scripts/buildWhisper.mjs fits these sources ${found} times, not once: the bundled whisper.cpp changed; look at the patch again.`);
    writeFileSync(path, text.replace(patch.find, patch.replace));
  }
}

function whisperCppVersion() {
  const cmakeLists = readFileSync(join(sourceDir, 'CMakeLists.txt'), 'utf8');
  return /project\("whisper\.cpp"\s+VERSION\s+([\d.]+)\)/.exec(cmakeLists)?.[1] ?? 'unknown';
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** What the binary is built from: equal stamps mean nothing needs building. */
function wantedStamp() {
  const extraFlags = (process.env.WHISPER_CMAKE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  return {
    whisperCpp: whisperCppVersion(),
    nodejsWhisper: readJson(join(packageDir, 'package.json'))?.version ?? 'unknown',
    sourcesSha256: hashSources(sourceDir),
    patchesSha256: createHash('sha256').update(JSON.stringify(sourcePatches)).digest('hex'),
    cmakeFlags: [...baseFlags, ...extraFlags],
  };
}

const sameStamp = (a, b) => a !== undefined && JSON.stringify({ ...a, builtAt: undefined, buildSeconds: undefined }) === JSON.stringify({ ...b, builtAt: undefined, buildSeconds: undefined });

function main() {
  if (!existsSync(join(sourceDir, 'CMakeLists.txt'))) {
    fail(`the whisper.cpp sources are missing (${relative(root, sourceDir)}): run \`npm ci\` first.`);
  }
  const force = process.argv.includes('--force');
  const wanted = wantedStamp();
  if (!force && targets.every((target) => existsSync(join(binDir, target))) && sameStamp(readJson(stampPath), wanted)) {
    console.log(`build:native: ${targets.join(' and ')} (whisper.cpp ${wanted.whisperCpp}) are up to date in ${relative(root, binDir)}/`);
    return;
  }

  checkTools();
  // A build folder configured with other flags or sources keeps stale cache entries: start afresh.
  if (existsSync(buildDir) && !sameStamp(readJson(buildStampPath), wanted)) rmSync(buildDir, { recursive: true, force: true });
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(logPath, `build:native ${new Date().toISOString()}\n`);

  copyPatchedSources();
  const cores = availableParallelism();
  console.log(`build:native: building ${targets.join(' and ')} (whisper.cpp ${wanted.whisperCpp}) with ${cores} cores; about 2 minutes on 2 cores…`);
  const started = Date.now();
  run('cmake', ['-S', patchedSourceDir, '-B', buildDir, ...wanted.cmakeFlags]);
  writeFileSync(buildStampPath, JSON.stringify(wanted, null, 2));
  run('cmake', ['--build', buildDir, '--config', 'Release', '--target', ...targets, '--parallel', String(cores)]);

  mkdirSync(binDir, { recursive: true });
  for (const target of targets) {
    const built = join(buildDir, 'bin', target);
    if (!existsSync(built)) fail(`the build finished but ${relative(root, built)} is missing.`);
    // Copy then rename, so a running service never sees a half-written binary.
    const installed = join(binDir, target);
    copyFileSync(built, `${installed}.partial`);
    renameSync(`${installed}.partial`, installed);
  }
  const buildSeconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(stampPath, `${JSON.stringify({ ...wanted, builtAt: new Date().toISOString(), buildSeconds }, null, 2)}\n`);
  console.log(`build:native: built ${targets.map((target) => relative(root, join(binDir, target))).join(' and ')} in ${buildSeconds} s (build output in ${relative(root, logPath)})`);
}

main();

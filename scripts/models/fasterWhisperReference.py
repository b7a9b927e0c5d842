"""faster-whisper's reading of the original CTranslate2 models, scored against whisper.cpp's.

Run by `npm run eval:conversion` with the interpreter of EVAL_MODELS_DIR/venv (made by
`npm run models:eval`). Reads a JSON job on stdin:

    {"settings": {...faster-whisper transcribe() arguments...}, "threads": n,
     "cases": [{"model": id, "ct2Directory": path, "language": "en", "recording": id,
                "audioPath": path, "whisperCpp": "text whisper.cpp gave"}]}

and writes one JSON object per line to stdout, per case: whisper.cpp's text after Whisper's
English normaliser, faster-whisper's seconds, and two readings by faster-whisper, each with its
normalised text, the word error rate of whisper.cpp's words against it (jiwer), and its
substitutions, deletions and insertions:

- "samePadding": the window that ends the recording padded as whisper.cpp pads it (see
  `whisper_cpp_padding`), so both programs give their model the same log-mel: the conversion's proof;
- "ownPadding": faster-whisper as shipped.

Python only because the reference implementations (faster-whisper, Whisper's normaliser, jiwer)
are Python.
"""

import json
import sys
import time
from contextlib import contextmanager

import faster_whisper.transcribe
import jiwer
import numpy as np
from faster_whisper import WhisperModel
from faster_whisper.audio import decode_audio
from whisper_normalizer.english import EnglishTextNormalizer


@contextmanager
def whisper_cpp_padding(extractor, audio: np.ndarray):
    """Within the block, faster-whisper fills the window that ends the recording (shorter than
    30 s) as whisper.cpp does, with the log-mel of zero samples after the audio, instead of with 0.

    faster-whisper (as openai-whisper's transcribe today) computes the log-mel of the audio, cuts
    the last window at the audio's last frame and fills the rest of its 3000 frames (30 s) with
    0, the scaled log-mel of a mel power of 1e-4; whisper.cpp appends 30 s of zero samples to the
    audio before its log-mel, so there the window goes on into frames of silence at Whisper's
    floor (8 decades below the loudest value), the first of which still overlap the audio's end."""
    shipped = faster_whisper.transcribe.pad_or_trim
    # shape: (n_mels, frames of the audio + 3000): whisper.cpp's log-mel.
    padded = extractor(audio, padding=extractor.n_samples)
    # faster-whisper's count of the audio's frames (the last frame of its log-mel is dropped).
    content_frames = extractor(audio).shape[-1] - 1

    def pad_or_trim(array: np.ndarray, length: int = 3000, *, axis: int = -1) -> np.ndarray:
        width = array.shape[-1]
        if width >= length:
            return shipped(array, length, axis=axis)
        if not np.allclose(array, padded[:, content_frames - width : content_frames], atol=1e-4):
            raise ValueError("a window shorter than 30 s that does not end the recording")
        return np.concatenate([array, padded[:, content_frames : content_frames + length - width]], axis=-1)

    faster_whisper.transcribe.pad_or_trim = pad_or_trim
    try:
        yield
    finally:
        faster_whisper.transcribe.pad_or_trim = shipped


def compare(reference: str, hypothesis: str) -> dict:
    """Whisper.cpp's normalised words (`hypothesis`) against faster-whisper's (`reference`)."""
    measures = jiwer.process_words(reference, hypothesis) if reference.strip() else None
    return {
        "fasterWhisper": reference,
        "referenceWords": len(reference.split()),
        "wer": measures.wer if measures else (0.0 if not hypothesis.strip() else 1.0),
        "substitutions": measures.substitutions if measures else 0,
        "deletions": measures.deletions if measures else 0,
        "insertions": measures.insertions if measures else len(hypothesis.split()),
    }


def main() -> None:
    job = json.load(sys.stdin)
    normalise = EnglishTextNormalizer()
    models: dict[str, WhisperModel] = {}
    for case in job["cases"]:
        model = models.get(case["ct2Directory"])
        if model is None:
            # float32 compute on the CPU (CTranslate2 would pick it for float16 weights anyway).
            model = WhisperModel(case["ct2Directory"], device="cpu", compute_type="float32", cpu_threads=job["threads"])
            models[case["ct2Directory"]] = model
        audio = decode_audio(case["audioPath"], sampling_rate=model.feature_extractor.sampling_rate)

        def read() -> str:
            segments, _ = model.transcribe(audio, language=case["language"], **job["settings"])
            return normalise(" ".join(segment.text.strip() for segment in segments))

        started = time.monotonic()
        own_padding = read()
        seconds = time.monotonic() - started
        with whisper_cpp_padding(model.feature_extractor, audio):
            same_padding = read()
        hypothesis = normalise(case["whisperCpp"])
        print(json.dumps({
            "model": case["model"],
            "recording": case["recording"],
            "whisperCpp": hypothesis,
            "samePadding": compare(same_padding, hypothesis),
            "ownPadding": compare(own_padding, hypothesis),
            "fasterWhisperSeconds": round(seconds, 2),
        }), flush=True)


if __name__ == "__main__":
    main()

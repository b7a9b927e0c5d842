"""faster-whisper's reading of the original CTranslate2 models, scored against whisper.cpp's.

Run by `npm run eval:conversion` with the interpreter of EVAL_MODELS_DIR/venv (made by
`npm run models:eval`). Reads a JSON job on stdin:

    {"settings": {...faster-whisper transcribe() arguments...},
     "cases": [{"model": id, "ct2Directory": path, "language": "en", "recording": id,
                "audioPath": path, "whisperCpp": "text whisper.cpp gave"}]}

and writes one JSON object per line to stdout, per case: both texts after Whisper's English
normaliser, the word error rate of whisper.cpp's words against faster-whisper's (jiwer), its
substitutions, deletions and insertions, and faster-whisper's seconds. Python only because the
reference implementations (faster-whisper, Whisper's normaliser, jiwer) are Python.
"""

import json
import sys
import time

import jiwer
from faster_whisper import WhisperModel
from whisper_normalizer.english import EnglishTextNormalizer


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
        started = time.monotonic()
        segments, _ = model.transcribe(case["audioPath"], language=case["language"], **job["settings"])
        reference_text = " ".join(segment.text.strip() for segment in segments)
        seconds = time.monotonic() - started
        reference = normalise(reference_text)
        hypothesis = normalise(case["whisperCpp"])
        measures = jiwer.process_words(reference, hypothesis) if reference.strip() else None
        print(json.dumps({
            "model": case["model"],
            "recording": case["recording"],
            "fasterWhisper": reference,
            "whisperCpp": hypothesis,
            "referenceWords": len(reference.split()),
            "wer": measures.wer if measures else (0.0 if not hypothesis.strip() else 1.0),
            "substitutions": measures.substitutions if measures else 0,
            "deletions": measures.deletions if measures else 0,
            "insertions": measures.insertions if measures else len(hypothesis.split()),
            "fasterWhisperSeconds": round(seconds, 2),
        }), flush=True)


if __name__ == "__main__":
    main()

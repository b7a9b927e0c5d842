"""Whisper's English text normaliser over a list of texts.

Run by scripts/models/englishNormaliser.ts with the interpreter of EVAL_MODELS_DIR/venv (made
by `npm run models:eval`). Reads a JSON array of strings on stdin and writes a JSON array of
the same length on stdout: each text after `EnglishTextNormalizer` (whisper-normalizer, the
normaliser OpenAI's Whisper papers score with: lower case, punctuation dropped, spellings
standardised, numbers written as digits, fillers such as "uh" removed). Python only because
that normaliser is Python.
"""

import json
import sys

from whisper_normalizer.english import EnglishTextNormalizer


def main() -> None:
    texts = json.load(sys.stdin)
    normalise = EnglishTextNormalizer()
    json.dump([normalise(text) for text in texts], sys.stdout)


if __name__ == "__main__":
    main()

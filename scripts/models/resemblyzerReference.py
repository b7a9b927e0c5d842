"""
Resemblyzer's own embeddings, the reference `npm run eval:voice-encoder` checks the project's GE2E
voice encoder against. Run with the voice-encoder reference environment's interpreter
(resemblyzer 0.1.4 with torch), `{"checkpoint": PATH, "recordings": [{"id": …, "path": …}]}` as
JSON on stdin, each path a raw file of float32 samples (16 kHz mono, −1 … 1). Writes
`{id: [256 floats]}` as JSON.

Each recording goes through resemblyzer's `normalize_volume` (−30 dBFS, raised only) and
`VoiceEncoder.embed_utterance` at its defaults; its `preprocess_wav` would also cut silences with
WebRTC's VAD, which the pipeline replaces with its own speech detection, so both sides are given
the same samples without it.
"""
import json
import sys

import numpy as np
from resemblyzer import VoiceEncoder
from resemblyzer.audio import normalize_volume
from resemblyzer.hparams import audio_norm_target_dBFS


def main():
    request = json.load(sys.stdin)
    encoder = VoiceEncoder('cpu', verbose=False, weights_fpath=request['checkpoint'])
    embeddings = {}
    for recording in request['recordings']:
        samples = np.fromfile(recording['path'], dtype=np.float32)
        embedding = encoder.embed_utterance(normalize_volume(samples, audio_norm_target_dBFS, increase_only=True))
        embeddings[recording['id']] = [float(value) for value in embedding]
    json.dump(embeddings, sys.stdout)


if __name__ == '__main__':
    main()

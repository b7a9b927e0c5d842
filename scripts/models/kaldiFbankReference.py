"""
Kaldi's log mel filterbank as kaldi-native-fbank computes it (the C++ port of Kaldi's
`compute-fbank-feats` that sherpa-onnx and WeSpeaker's runtime use), the reference the project's
fbank front end (src/pipeline/diarization/models/computeFbank.ts) is checked against. Run with the
reference environment's interpreter, `{"window": "povey" | "hamming", "melBins": 80,
"recordings": [{"id": …, "path": …}]}` as JSON on stdin, each path a raw file of float32 samples
(16 kHz mono, on the 16-bit integer scale as Kaldi expects). Writes `{id: {"frames": N,
"features": [N × melBins floats, row-major]}}` as JSON.

Options as WeSpeaker's and 3D-Speaker's inference set them: no dither, edges snipped, DC offset
removed, pre-emphasis 0.97, 25 ms frames every 10 ms, 20 Hz to Nyquist, no energy column.
"""
import json
import sys

import kaldi_native_fbank as knf
import numpy as np


def main():
    request = json.load(sys.stdin)
    options = knf.FbankOptions()
    options.frame_opts.samp_freq = 16000
    options.frame_opts.frame_length_ms = 25
    options.frame_opts.frame_shift_ms = 10
    options.frame_opts.dither = 0
    options.frame_opts.snip_edges = True
    options.frame_opts.remove_dc_offset = True
    options.frame_opts.preemph_coeff = 0.97
    options.frame_opts.window_type = request['window']
    options.mel_opts.num_bins = request['melBins']
    options.mel_opts.low_freq = 20
    options.mel_opts.high_freq = 0
    options.use_energy = False
    features = {}
    for recording in request['recordings']:
        samples = np.fromfile(recording['path'], dtype=np.float32)
        fbank = knf.OnlineFbank(options)
        fbank.accept_waveform(16000, samples.tolist())
        fbank.input_finished()
        rows = [fbank.get_frame(index) for index in range(fbank.num_frames_ready)]
        features[recording['id']] = {'frames': len(rows), 'features': [float(value) for row in rows for value in row]}
    json.dump(features, sys.stdout)


if __name__ == '__main__':
    main()

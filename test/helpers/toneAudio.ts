import { wavFile } from './audioFixtures.js';

/**
 * A 16-bit mono PCM WAV holding a steady sine tone: audio that clean-up accepts (not silence)
 * and whose levels are known: peak `20·log10(amplitude)` dBFS, RMS 3 dB below it.
 */
export function toneWavFile(seconds: number, { frequencyHz = 440, amplitude = 0.5, sampleRate = 16000 } = {}): Buffer {
  const file = wavFile(seconds, sampleRate);
  const samples = (file.length - 44) / 2;
  for (let index = 0; index < samples; index += 1) {
    file.writeInt16LE(Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * frequencyHz * index) / sampleRate)), 44 + index * 2);
  }
  return file;
}

/**
 * A model file whose layout is not the one its reader states: names the file, the field that
 * broke the layout (a header field, a variable, a tensor) and what was expected there.
 */
export class ModelFormatError extends Error {
  constructor(readonly file: string, readonly field: string, detail: string) {
    super(`${file}: ${field}: ${detail}`);
    this.name = 'ModelFormatError';
  }
}

/** Builds the multipart form of `POST /api/calls/analyze`. */
export function uploadForm(file: Buffer, fileName = 'call.wav', parts: { metadata?: unknown; fields?: Record<string, string> } = {}): FormData {
  const form = new FormData();
  if (parts.metadata !== undefined) {
    const json = typeof parts.metadata === 'string' ? parts.metadata : JSON.stringify(parts.metadata);
    form.append('metadata', new Blob([json], { type: 'application/json' }));
  }
  for (const [name, value] of Object.entries(parts.fields ?? {})) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file)]), fileName);
  return form;
}

import { afterEach, beforeEach, vi } from 'vitest';

/**
 * What a CLI command under test writes, line by line: `printed` (console.log: its JSON or RTTM)
 * and `reported` (console.error: its reasons). Registers the hooks that empty and capture them
 * for each test of the calling file; the arrays stay the same objects throughout.
 */
export function captureCommandOutput(): { printed: string[]; reported: string[] } {
  const output = { printed: [] as string[], reported: [] as string[] };
  beforeEach(() => {
    output.printed.length = 0;
    output.reported.length = 0;
    vi.spyOn(console, 'log').mockImplementation((line: string) => { output.printed.push(line); });
    vi.spyOn(console, 'error').mockImplementation((line: string) => { output.reported.push(line); });
  });
  afterEach(() => { vi.restoreAllMocks(); });
  return output;
}

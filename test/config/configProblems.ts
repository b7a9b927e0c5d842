import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/loadConfig.js';

/** The problems `loadConfig` reports for `env`, or a failure when it accepts it. */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the configuration to be refused');
}

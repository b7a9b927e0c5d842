/** Request headers whose values are secrets the service must never write to its logs. */
const credentialHeaders = new Set(['authorization', 'x-api-key']);

/** Pieces shorter than this (e.g. the scheme `Bearer`) are too common to count as a leak on their own. */
const minimumSecretLength = 16;

export interface CredentialAudit {
  /** fetch against `baseUrl` that remembers every credential it sends. */
  fetch(path: string, headers?: Record<string, string>, init?: RequestInit): Promise<Response>;
  /** Records a credential sent some other way (e.g. through `TestApp.as`). */
  remember(secret: string): void;
  /** The remembered secrets (or parts of them: token segments, the value after `Bearer`) found in any log line. */
  leaksIn(logLines: readonly Record<string, unknown>[]): string[];
}

/**
 * Tracks the credentials a test sends so that it can check afterwards that none of them, nor
 * any segment of a JWT among them, appears in the app's log output.
 */
export function createCredentialAudit(baseUrl: string): CredentialAudit {
  const secrets = new Set<string>();
  const remember = (secret: string) => {
    const pieces = [secret, ...secret.split(/[ .]+/)];
    for (const piece of pieces) if (piece.length >= minimumSecretLength) secrets.add(piece);
  };
  return {
    remember,
    fetch: (path, headers = {}, init = {}) => {
      for (const [name, value] of Object.entries(headers)) if (credentialHeaders.has(name.toLowerCase())) remember(value);
      return fetch(`${baseUrl}${path}`, { ...init, headers });
    },
    leaksIn: (logLines) => {
      const serialisedLines = logLines.map((line) => JSON.stringify(line));
      return [...secrets].filter((secret) => serialisedLines.some((line) => line.includes(secret)));
    },
  };
}

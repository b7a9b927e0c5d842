/**
 * The receivers named in `WEBHOOK_URLS` (comma-separated), each in its normalised form
 * (`new URL(…).href`, so `http://crm.lan` and `http://crm.lan/` are one endpoint): what the
 * delivery rows store and compare against. Empty when unset. Entries that do not parse are left
 * out here; {@link webhookUrlProblems} reports them when the configuration is loaded or saved.
 */
export function webhookEndpointsOf(setting: string | undefined): string[] {
  const endpoints = new Set<string>();
  for (const entry of entriesOf(setting)) {
    const url = parsedEndpoint(entry);
    if (url) endpoints.add(url.href);
  }
  return [...endpoints];
}

/** Why `WEBHOOK_URLS` is not usable, as `WEBHOOK_URLS: problem` lines (config cross-field rules). */
export function webhookUrlProblems(setting: string | undefined): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of entriesOf(setting)) {
    const url = parsedEndpoint(entry);
    if (!url) problems.push(`WEBHOOK_URLS: ${JSON.stringify(entry)} is not an http(s) URL with a host`);
    else if (seen.has(url.href)) problems.push(`WEBHOOK_URLS: ${url.host} is listed twice (${url.href})`);
    else seen.add(url.href);
  }
  return problems;
}

/** The host (and port) of an endpoint: all that logs say of it (a URL may carry a token). */
export function endpointHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}

function entriesOf(setting: string | undefined): string[] {
  return (setting ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

function parsedEndpoint(entry: string): URL | undefined {
  try {
    const url = new URL(entry);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

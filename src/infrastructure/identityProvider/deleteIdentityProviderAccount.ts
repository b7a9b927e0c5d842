import type { FastifyBaseLogger } from 'fastify';

export interface IdentityProviderDeletion {
  /** URL template with `{sub}`, e.g. `https://idp.local/admin/users/{sub}`. */
  urlTemplate: string;
  bearerToken?: string;
}

/**
 * Best-effort removal of the user's account at the identity provider: an HTTP DELETE with a
 * 10 s timeout. Failures are logged (status only, never the token or subject) and swallowed:
 * local data is already gone, which is what the user asked for.
 */
export async function deleteIdentityProviderAccount(hook: IdentityProviderDeletion, subject: string, log: FastifyBaseLogger): Promise<void> {
  const url = hook.urlTemplate.replaceAll('{sub}', encodeURIComponent(subject));
  try {
    const response = await fetch(url, {
      method: 'DELETE',
      headers: hook.bearerToken ? { authorization: `Bearer ${hook.bearerToken}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) log.warn({ status: response.status }, 'identity-provider account deletion refused');
    else log.info('identity-provider account deleted');
  } catch (error) {
    log.warn({ reason: (error as Error).name }, 'identity-provider account deletion failed');
  }
}

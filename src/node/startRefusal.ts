import { ConfigError } from '../config/loadConfig.js';
import { ProcessingLockHeld } from '../processing/ProcessingLock.js';
import { CertificateRejected } from '../infrastructure/tls/checkCertificate.js';
import { PortUnavailable } from './PortUnavailable.js';

/**
 * What to print when a node cannot start until its setup changes (it then exits 78, EX_CONFIG,
 * without a stack trace): invalid settings, another engine on the embedded database's DATA_DIR,
 * its port taken, the site's certificate (TLS_CERT_FILE) failing its check. Undefined for any
 * other error: a fault, printed with its stack.
 */
export function startRefusal(error: unknown): string | undefined {
  if (error instanceof ProcessingLockHeld) {
    return `${error.message}. With the embedded database one process handles the calls of a DATA_DIR; set DATABASE_URL (PostgreSQL) to run several nodes that process calls.`;
  }
  if (error instanceof ConfigError || error instanceof PortUnavailable) return error.message;
  if (error instanceof CertificateRejected) return `The certificate of TLS_CERT_FILE and TLS_KEY_FILE is not served: ${error.message}. Replace the files, or unset both to serve the box's own certificate`;
  return undefined;
}

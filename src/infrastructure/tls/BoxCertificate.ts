import { createPrivateKey, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { access, chmod, link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from '../../config/configSchema.js';
import type { Clock } from '../clock.js';
import { namesOfThisBox, requiredSiteNames, thisMachine, type MachineIdentity } from './boxNames.js';
import { certificateDetails, namesOf, type CertificateDetails, type CertificateNames } from './certificateDetails.js';
import { CertificateRejected, checkCertificate, type CertificatePair } from './checkCertificate.js';
import { generateBoxKey, issueSelfSignedCertificate } from './issueCertificate.js';

/** `generated`: made by the box itself; `site`: the site's own (from `TLS_CERT_FILE`, or uploaded on the admin page). */
export type CertificateSource = 'generated' | 'site';
/** Where the certificate in use was read from. */
export type CertificateOrigin = 'generated' | 'environment' | 'upload';

export interface CertificateInUse {
  source: CertificateSource;
  origin: CertificateOrigin;
  pair: CertificatePair;
  details: CertificateDetails;
}

/** What the box logs about its certificate (a pino logger). */
export interface CertificateLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The setting that names the site's certificate makes the admin page's upload meaningless: refused. */
export class SiteCertificateFromEnvironment extends Error {
  constructor() {
    super('The certificate is set by TLS_CERT_FILE and TLS_KEY_FILE: replace those files (they are read again when they change), or unset them to upload one here');
    this.name = 'SiteCertificateFromEnvironment';
  }
}

/** The box's TLS files, in `DATA_DIR/tls/` (mode 0700): a shared DATA_DIR gives every `serve` node the same certificate. */
export const tlsFolderName = 'tls';
const fileNames = {
  generatedKey: 'generated-key.pem',
  generatedCertificate: 'generated-certificate.pem',
  uploadedKey: 'site-key.pem',
  uploadedCertificate: 'site-certificate.pem',
} as const;

/** A generated certificate is issued again (same key, same names and more) this long before it expires, days; a site's is warned of. */
export const renewBeforeDays = 30;
const dayMs = 24 * 60 * 60 * 1000;
/**
 * The files are looked at again this often, ms, besides on every change the file system reports:
 * a shared mount does not report another node's writes, and renewal needs a look now and then.
 */
const pollIntervalMs = 60_000;
/** A change is acted on once the files have been quiet this long, ms (a certificate and its key are written one after the other). */
const settleMs = 250;

type CertificateSettings = Pick<Config, 'DATA_DIR' | 'HOST' | 'TLS_HOSTNAMES' | 'TLS_CERT_FILE' | 'TLS_KEY_FILE'>;

/**
 * The certificate HTTPS serves, by precedence: the site's from `TLS_CERT_FILE`/`TLS_KEY_FILE`;
 * else the one uploaded on the admin page; else the box's own, made at first start (an ECDSA
 * P-256 key kept for good; the certificate issued again with that key, so pins hold, when it is
 * within {@link renewBeforeDays} of expiry or a name of the box is missing from it).
 * A site certificate is checked before use ({@link checkCertificate}). While running, the files
 * are watched: a valid change reaches {@link onChange}'s listeners (the server then serves it to
 * new connections), a change that fails the check is logged and the certificate in use stays.
 */
export class BoxCertificate {
  private inUse?: CertificateInUse;
  /** Why the files were last refused, so that one bad change is logged once, not at every look. */
  private refusedText?: string;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners: ((inUse: CertificateInUse) => void)[] = [];
  private watchers: FSWatcher[] = [];
  private poll?: NodeJS.Timeout;
  private settle?: NodeJS.Timeout;
  private log?: CertificateLog;
  /** What happened before a log was given ({@link watch}): a first start's certificate, an upload not served. */
  private unreported: [level: keyof CertificateLog, fields: object, message: string][] = [];
  private lastExpiryWarningAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly settings: CertificateSettings,
    private readonly clock: Clock,
    private readonly machine: MachineIdentity = thisMachine(),
  ) {}

  get folder(): string {
    return join(this.settings.DATA_DIR, tlsFolderName);
  }

  /**
   * The certificate to serve, loaded on the first call (made, on a first start). A site
   * certificate from `TLS_CERT_FILE` that fails its check is thrown ({@link CertificateRejected}):
   * the node does not start on it. An uploaded one that fails is logged and the generated one
   * served, so that the admin page stays reachable to upload another.
   */
  async current(): Promise<CertificateInUse> {
    if (!this.inUse) {
      await this.exclusive(async () => {
        if (this.inUse) return;
        try {
          this.inUse = await this.load();
        } catch (error) {
          if (!(error instanceof CertificateRejected) || this.settings.TLS_CERT_FILE) throw error;
          this.report('error', { problem: error.problem }, `the uploaded certificate in ${this.folder} is not served: ${error.message}; serving the generated one`);
          this.inUse = await this.loadGenerated();
        }
      });
    }
    return this.inUse!;
  }

  /** `listener` gets each certificate that replaces the one in use. */
  onChange(listener: (inUse: CertificateInUse) => void): void {
    this.listeners.push(listener);
  }

  /** Reads the files again and serves what changed, if it passes its check (see the class). */
  async refresh(): Promise<void> {
    await this.current();
    await this.exclusive(() => this.reload());
  }

  /**
   * The admin page's upload: checked, written to `DATA_DIR/tls/` (the key 0600) and served to
   * new connections at once (other nodes on the shared DATA_DIR follow within a minute).
   * Throws {@link CertificateRejected} (nothing changes) or {@link SiteCertificateFromEnvironment}.
   */
  async upload(pair: CertificatePair): Promise<CertificateInUse> {
    if (this.settings.TLS_CERT_FILE) throw new SiteCertificateFromEnvironment();
    const checked = checkCertificate(pair, { requiredNames: requiredSiteNames(this.settings, this.machine), now: this.clock() });
    await this.current();
    return this.exclusive(async () => {
      await this.makeFolder();
      await writeAtomically(join(this.folder, fileNames.uploadedKey), pair.keyPem, 0o600);
      await writeAtomically(join(this.folder, fileNames.uploadedCertificate), pair.certificatePem, 0o644);
      return this.use({ source: 'site', origin: 'upload', pair, details: checked.details });
    });
  }

  /** Removes an uploaded certificate: the generated one is served again (the same key: pins of it hold). */
  async removeUpload(): Promise<CertificateInUse> {
    if (this.settings.TLS_CERT_FILE) throw new SiteCertificateFromEnvironment();
    await this.current();
    return this.exclusive(async () => {
      await rm(join(this.folder, fileNames.uploadedCertificate), { force: true });
      await rm(join(this.folder, fileNames.uploadedKey), { force: true });
      return this.use(await this.loadGenerated());
    });
  }

  /** Starts watching the files (see the class); `log` gets what changed and what was refused, and what happened before. */
  watch(log: CertificateLog): void {
    this.log = log;
    for (const [level, fields, message] of this.unreported.splice(0)) log[level](fields, message);
    if (this.poll) return;
    const folders = new Set([this.folder, ...[this.settings.TLS_CERT_FILE, this.settings.TLS_KEY_FILE].filter((path) => path !== undefined).map((path) => dirname(path))]);
    for (const folder of folders) {
      try {
        const watcher = watch(folder, () => this.scheduleRefresh());
        // A watch that fails later (the folder removed, inotify's limit): the poll still looks.
        watcher.on('error', () => watcher.close());
        watcher.unref();
        this.watchers.push(watcher);
      } catch {
        // No watch on this file system: the poll looks every minute.
      }
    }
    this.poll = setInterval(() => this.scheduleRefresh(), pollIntervalMs);
    this.poll.unref();
  }

  close(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
    clearInterval(this.poll);
    clearTimeout(this.settle);
    this.poll = undefined;
  }

  private report(level: keyof CertificateLog, fields: object, message: string): void {
    if (this.log) this.log[level](fields, message);
    else this.unreported.push([level, fields, message]);
  }

  private scheduleRefresh(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.refresh().catch((error: unknown) => this.report('error', { err: error }, 'could not read the TLS certificate files again'));
    }, settleMs);
    this.settle.unref();
  }

  private async reload(): Promise<void> {
    try {
      const next = await this.load();
      if (textOf(next.pair) !== textOf(this.inUse!.pair)) {
        this.use(next);
        this.report('info', { source: next.source, origin: next.origin, fingerprintSha256: next.details.fingerprintSha256, notAfter: next.details.notAfter }, 'serving a new TLS certificate to new connections');
      }
      this.refusedText = undefined;
    } catch (error) {
      if (!(error instanceof CertificateRejected)) throw error;
      if (error.message !== this.refusedText) {
        this.refusedText = error.message;
        this.report('error', { problem: error.problem }, `the changed TLS certificate is not served: ${error.message}; the certificate in use stays`);
      }
    }
    this.warnOfExpiry();
  }

  /** A site certificate within {@link renewBeforeDays} of its end: a warning in the log once a day (the admin page shows it too). */
  private warnOfExpiry(): void {
    const warning = expiryWarning(this.inUse!, this.clock());
    if (!warning || this.clock() - this.lastExpiryWarningAt < dayMs) return;
    this.lastExpiryWarningAt = this.clock();
    this.report('warn', { notAfter: this.inUse!.details.notAfter }, warning);
  }

  private use(next: CertificateInUse): CertificateInUse {
    this.inUse = next;
    for (const listener of this.listeners) listener(next);
    return next;
  }

  private async load(): Promise<CertificateInUse> {
    const files = await this.siteFiles();
    if (!files) return this.loadGenerated();
    const pair = await readPair(files);
    // Unchanged since it was taken: it was checked then (its end is watched by the expiry warning).
    if (this.inUse?.origin === files.origin && textOf(pair) === textOf(this.inUse.pair)) return this.inUse;
    const checked = checkCertificate(pair, { requiredNames: requiredSiteNames(this.settings, this.machine), now: this.clock() });
    return { source: 'site', origin: files.origin, pair, details: checked.details };
  }

  /** The site certificate's files: the environment's, else an upload's, else none. */
  private async siteFiles(): Promise<SiteFiles | undefined> {
    const { TLS_CERT_FILE, TLS_KEY_FILE } = this.settings;
    if (TLS_CERT_FILE && TLS_KEY_FILE) return { origin: 'environment', certificatePath: TLS_CERT_FILE, keyPath: TLS_KEY_FILE };
    const certificatePath = join(this.folder, fileNames.uploadedCertificate);
    const uploaded = await access(certificatePath).then(() => true, () => false);
    return uploaded ? { origin: 'upload', certificatePath, keyPath: join(this.folder, fileNames.uploadedKey) } : undefined;
  }

  private async loadGenerated(): Promise<CertificateInUse> {
    await this.makeFolder();
    const keyPem = await this.generatedKeyPem();
    const key = createPrivateKey(keyPem);
    const certificatePath = join(this.folder, fileNames.generatedCertificate);
    let certificatePem = await readFile(certificatePath, 'utf8').catch(() => undefined);
    const wanted = namesOfThisBox(this.settings, this.machine);
    const now = this.clock();
    const reason = certificatePem === undefined ? 'first start' : reissueReason(certificatePem, key, wanted, now);
    if (reason) {
      const kept = certificatePem === undefined ? { dns: [], ip: [] } : namesOfPem(certificatePem);
      certificatePem = await issueSelfSignedCertificate(key, union(kept, wanted), { commonName: this.machine.hostName, now });
      await writeAtomically(certificatePath, certificatePem, 0o644);
      this.report('info', { reason }, 'issued the box\'s own TLS certificate (the same key: pins hold)');
    }
    const certificate = new X509Certificate(certificatePem!);
    return { source: 'generated', origin: 'generated', pair: { certificatePem: certificatePem!, keyPem }, details: certificateDetails(certificate) };
  }

  /**
   * The box's own key, made on a first start. Created by a hard link, which fails when the file
   * exists, so that two nodes starting at once on a shared DATA_DIR end with one key.
   */
  private async generatedKeyPem(): Promise<string> {
    const path = join(this.folder, fileNames.generatedKey);
    const existing = await readFile(path, 'utf8').catch(() => undefined);
    if (existing !== undefined) {
      await chmod(path, 0o600);
      return existing;
    }
    const staged = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(staged, generateBoxKey().export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    try {
      await link(staged, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await rm(staged, { force: true });
    }
    return readFile(path, 'utf8');
  }

  private async makeFolder(): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await chmod(this.folder, 0o700);
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

interface SiteFiles {
  origin: 'environment' | 'upload';
  certificatePath: string;
  keyPath: string;
}

/**
 * What the admin page warns of: a certificate that has ended or ends within
 * {@link renewBeforeDays}. None for a generated one that is not yet due (it renews itself).
 */
export function expiryWarning(inUse: CertificateInUse, now: number): string | null {
  const notAfter = Date.parse(inUse.details.notAfter);
  const days = daysUntilExpiry(inUse, now);
  if (days >= renewBeforeDays) return null;
  if (notAfter <= now) return `The certificate expired on ${inUse.details.notAfter.slice(0, 10)}: clients refuse it${inUse.source === 'site' ? '; replace it' : ''}`;
  return inUse.source === 'site'
    ? `The certificate expires on ${inUse.details.notAfter.slice(0, 10)} (in ${days} days): replace it (${inUse.origin === 'environment' ? 'TLS_CERT_FILE and TLS_KEY_FILE' : 'upload a new one'})`
    : `The box's own certificate expires on ${inUse.details.notAfter.slice(0, 10)} (in ${days} days) and has not renewed itself: see the log`;
}

/** Whole days from `now` until the certificate's `notAfter`; negative once it has passed. */
export function daysUntilExpiry(inUse: CertificateInUse, now: number): number {
  return Math.floor((Date.parse(inUse.details.notAfter) - now) / dayMs);
}

async function readPair(files: SiteFiles): Promise<CertificatePair> {
  const read = async (path: string, problem: 'certificate_unreadable' | 'key_unreadable') => readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CertificateRejected(problem, `${path} cannot be read (${error.code ?? error.message})`);
  });
  return { certificatePem: await read(files.certificatePath, 'certificate_unreadable'), keyPem: await read(files.keyPath, 'key_unreadable') };
}

function textOf(pair: CertificatePair): string {
  return `${pair.certificatePem}\n${pair.keyPem}`;
}

/** Why the generated certificate must be issued again, or undefined when it serves as it is. */
function reissueReason(certificatePem: string, key: KeyObject, wanted: CertificateNames, now: number): string | undefined {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    return 'the certificate file was damaged';
  }
  if (!certificate.checkPrivateKey(key)) return 'the key file was replaced';
  if (Date.parse(certificate.validTo) - now < renewBeforeDays * dayMs) return 'renewal';
  const names = namesOf(certificate);
  const missing = [...wanted.dns.filter((name) => !names.dns.includes(name)), ...wanted.ip.filter((address) => !names.ip.includes(address))];
  return missing.length > 0 ? `new names: ${missing.join(', ')}` : undefined;
}

function namesOfPem(certificatePem: string): CertificateNames {
  try {
    return namesOf(new X509Certificate(certificatePem));
  } catch {
    return { dns: [], ip: [] };
  }
}

/**
 * The names of both, the first's first: a certificate issued again keeps the names it had (each
 * node of a shared DATA_DIR adds its own, none takes another's away).
 */
function union(first: CertificateNames, second: CertificateNames): CertificateNames {
  return { dns: [...new Set([...first.dns, ...second.dns])], ip: [...new Set([...first.ip, ...second.ip])] };
}

/** Written whole or not at all: to a file beside it, then renamed over it. */
async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  const staged = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(staged, text, { mode });
  await rename(staged, path);
}

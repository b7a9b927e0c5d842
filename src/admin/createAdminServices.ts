import type { Config } from '../config/configSchema.js';
import type { Clock } from '../infrastructure/clock.js';
import type { SqlDatabase } from '../infrastructure/database/SqlDatabase.js';
import { AdminAuditLog } from './audit/AdminAuditLog.js';
import { AdminSessions } from './auth/AdminSessions.js';
import { SignInThrottle } from './auth/SignInThrottle.js';
import { AdminAccount } from './credentials/AdminAccount.js';
import { AdminCredentialRepository } from './credentials/AdminCredentialRepository.js';
import { AdminSetupLink } from './credentials/AdminSetupLink.js';
import { StoredApiKey } from './credentials/StoredApiKey.js';
import { AdminSettings } from './settings/AdminSettings.js';
import { StoredSettingRepository } from './settings/StoredSettingRepository.js';

/** The admin area's state, shared by its routes and `server.ts`. */
export interface AdminServices {
  account: AdminAccount;
  setupLink: AdminSetupLink;
  sessions: AdminSessions;
  signInThrottle: SignInThrottle;
  audit: AdminAuditLog;
  settings: AdminSettings;
  /** Why the stored settings were not applied at start-up (empty when they were). */
  storedSettingsProblems: string[];
}

/**
 * The admin area over the open database. Applies the settings stored on the admin page to
 * `config` (where no env variable sets them), so call it before anything reads `config`.
 */
export async function createAdminServices(db: SqlDatabase, config: Config, environmentKeys: ReadonlySet<keyof Config>, clock: Clock): Promise<{ admin: AdminServices; storedApiKey: StoredApiKey }> {
  const credentials = new AdminCredentialRepository(db);
  const account = new AdminAccount(credentials);
  const settings = new AdminSettings(config, new StoredSettingRepository(db), environmentKeys);
  const storedSettingsProblems = await settings.applyStored();
  return {
    admin: {
      account,
      setupLink: new AdminSetupLink(account, config.DATA_DIR, clock),
      sessions: new AdminSessions(db, config),
      signInThrottle: new SignInThrottle(),
      audit: new AdminAuditLog(db),
      settings,
      storedSettingsProblems,
    },
    storedApiKey: new StoredApiKey(credentials),
  };
}

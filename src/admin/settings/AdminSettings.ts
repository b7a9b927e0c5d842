import { Value } from 'typebox/value';
import { ConfigSchema, type Config } from '../../config/configSchema.js';
import { configProblems } from '../../config/loadConfig.js';
import { editableSettingKeys, editableSettings, isEditableSetting, type EditableSettingKey } from './editableSettings.js';
import type { StoredSettingRepository } from './StoredSettingRepository.js';

export type SettingSource = 'env' | 'stored' | 'default';
export type SettingValue = string | number | boolean | null;

/** One editable setting as the admin page shows it. */
export interface SettingView {
  key: EditableSettingKey;
  /** The value in force after the next start (now, for live settings); null for secrets and unset optional settings. */
  value: SettingValue;
  source: SettingSource;
  /** False when an env variable sets it: the environment wins. */
  editable: boolean;
  live: boolean;
  /** A stored change is waiting for the next start. */
  restartRequired: boolean;
  secret: boolean;
  description: string;
}

/** A refused change, field by field (`path` is `values/<KEY>`). */
export class SettingsRejected extends Error {
  constructor(readonly fields: { path: string; message: string }[]) {
    super('The settings are not valid');
    this.name = 'SettingsRejected';
  }
}

type ConfigRecord = Record<string, unknown>;

/**
 * Settings saved from the admin page. Precedence: env variable, then stored value, then the
 * schema's default. A change is validated as a whole configuration (schema and cross-field
 * rules, as at start-up), stored, and applied to the live `config` object when the setting is live.
 */
export class AdminSettings {
  /** The revision of the stored settings this node has applied. */
  private seenRevision = 0;

  constructor(
    /** The running service's configuration object, changed in place. */
    private readonly config: Config,
    private readonly stored: StoredSettingRepository,
    private readonly environmentKeys: ReadonlySet<keyof Config>,
  ) {}

  /**
   * At start-up: applies the stored values of settings no env variable sets. When together they
   * make an invalid configuration (e.g. the environment changed since), none is applied and the
   * problems are returned.
   */
  async applyStored(): Promise<string[]> {
    this.seenRevision = await this.stored.revision();
    const candidate = this.nextStartConfig(await this.stored.all());
    const problems = configProblems(candidate);
    if (problems.length > 0) return problems;
    for (const key of editableSettingKeys) assign(this.config, key, candidate[key]);
    return [];
  }

  /**
   * Another node saved settings: applies the live ones here too (the others wait for this node's
   * next start, as on the node that saved them). Cheap when nothing changed: one query.
   * Returns the keys applied.
   */
  async refresh(): Promise<EditableSettingKey[]> {
    const revision = await this.stored.revision();
    if (revision === this.seenRevision) return [];
    this.seenRevision = revision;
    const candidate = this.nextStartConfig(await this.stored.all());
    if (configProblems(candidate).length > 0) return [];
    const applied = editableSettingKeys.filter((key) => editableSettings[key].live && !Value.Equal(candidate[key], (this.config as ConfigRecord)[key]));
    for (const key of applied) assign(this.config, key, candidate[key]);
    return applied;
  }

  async describe(): Promise<SettingView[]> {
    const stored = await this.stored.all();
    const next = this.nextStartConfig(stored);
    return editableSettingKeys.map((key) => {
      const { live, secret } = editableSettings[key];
      const source: SettingSource = this.environmentKeys.has(key) ? 'env' : stored.has(key) ? 'stored' : 'default';
      return {
        key,
        value: secret ? null : ((next[key] ?? null) as SettingValue),
        source,
        editable: source !== 'env',
        live,
        restartRequired: !live && !Value.Equal(next[key], (this.config as ConfigRecord)[key]),
        secret,
        description: schemaOf(key).description ?? '',
      };
    });
  }

  /**
   * Validates and stores `values` (`null` or `""` returns a setting to its default) and applies
   * the live ones. Returns what changed, secrets as `(changed)`, for the audit log.
   * @throws SettingsRejected naming each problem
   */
  async change(values: Record<string, unknown>, now: number): Promise<Record<string, unknown>> {
    const fields: { path: string; message: string }[] = [];
    const requested = new Map<EditableSettingKey, unknown>();
    for (const [key, value] of Object.entries(values)) {
      if (!isEditableSetting(key)) fields.push({ path: `values/${key}`, message: 'is not a setting the admin page can change' });
      else if (this.environmentKeys.has(key)) fields.push({ path: `values/${key}`, message: `is set by the environment variable ${key}; change it there` });
      else requested.set(key, value === null || value === '' ? undefined : Value.Convert(ConfigSchema.properties[key], value));
    }
    if (fields.length > 0) throw new SettingsRejected(fields);

    const stored = await this.stored.all();
    const candidate = this.nextStartConfig(stored);
    for (const [key, value] of requested) assign(candidate, key, value ?? schemaOf(key).default);
    const problems = configProblems(candidate);
    if (problems.length > 0) throw new SettingsRejected(problems.map(toField));

    const changes = new Map([...requested].filter(([key, value]) => !Value.Equal(stored.get(key), value)));
    await this.stored.save(changes, now);
    // This node applies its own changes below; a refresh need not read them again.
    this.seenRevision = await this.stored.revision();
    for (const key of changes.keys()) if (editableSettings[key].live) assign(this.config, key, candidate[key]);
    return Object.fromEntries([...changes].map(([key, value]) => [key, editableSettings[key].secret ? '(changed)' : (value ?? null)]));
  }

  /** The configuration the next start would load: env-set values as now, stored ones, else defaults. */
  private nextStartConfig(stored: ReadonlyMap<string, unknown>): ConfigRecord {
    const next: ConfigRecord = { ...this.config };
    for (const key of editableSettingKeys) {
      if (this.environmentKeys.has(key)) continue;
      assign(next, key, stored.has(key) ? stored.get(key) : schemaOf(key).default);
    }
    return next;
  }
}

function schemaOf(key: EditableSettingKey): { default?: unknown; description?: string } {
  return ConfigSchema.properties[key] as { default?: unknown; description?: string };
}

/** Sets `key`, or deletes it for `undefined` (an optional setting left unset). */
function assign(target: object, key: string, value: unknown): void {
  if (value === undefined) delete (target as ConfigRecord)[key];
  else (target as ConfigRecord)[key] = value;
}

/** `NAME: problem` (from {@link configProblems}) as a field problem. */
function toField(problem: string): { path: string; message: string } {
  const match = /^([A-Z0-9_]+)(?: and [A-Z0-9_]+)?: (.*)$/.exec(problem);
  return match ? { path: `values/${match[1]}`, message: match[2]! } : { path: 'values', message: problem };
}

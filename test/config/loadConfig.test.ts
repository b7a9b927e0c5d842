import { describe, expect, test } from 'vitest';
import { hasIdentitySource, loadConfig } from '../../src/config/loadConfig.js';
import { problemsOf } from './configProblems.js';


describe('loadConfig', () => {
  test('an empty environment gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      LOCAL_AUTH: false,
      MAX_FILE_SIZE: 52_428_800,
      STATUS_MAX_IDS: 100,
      RATE_LIMIT_PER_MINUTE: 600,
      RATE_LIMIT_BURST: 120,
      MIN_FREE_DISK_MB: 1024,
      TRUST_PROXY: false,
      REQUEST_TIMEOUT_MS: 300_000,
      WORKER_CONCURRENCY: 0,
      STALE_JOB_MINUTES: 15,
      AUDIO_RETENTION_DAYS: 30,
      MAX_AUDIO_DURATION_SECONDS: 7200,
    });
    expect(config.API_KEY).toBeUndefined();
    expect(config.OIDC_ISSUER).toBeUndefined();
    expect(hasIdentitySource(config)).toBe(false);
  });

  test('converts numeric and boolean strings to their declared types', () => {
    const config = loadConfig({ PORT: '8081', LOCAL_AUTH: 'true', TRUST_PROXY: 'false', MAX_FILE_SIZE: ' 2048 ' });
    expect(config.PORT).toBe(8081);
    expect(config.LOCAL_AUTH).toBe(true);
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.MAX_FILE_SIZE).toBe(2048);
    expect(hasIdentitySource(config)).toBe(true);
  });

  test('empty and blank strings count as unset, so defaults stay', () => {
    const config = loadConfig({ PORT: '', LOG_LEVEL: '   ', API_KEY: '', OIDC_ISSUER: '' });
    expect(config.PORT).toBe(8080);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.API_KEY).toBeUndefined();
    expect(config.OIDC_ISSUER).toBeUndefined();
  });

  test('ignores variables it does not know', () => {
    expect(loadConfig({ HOME: '/root', SOMETHING_ELSE: 'x' })).not.toHaveProperty('SOMETHING_ELSE');
  });

  test('lists every invalid value by name in ConfigError.problems', () => {
    const problems = problemsOf({ PORT: 'eighty', LOG_LEVEL: 'loud', API_KEY: 'short', RATE_LIMIT_BURST: '0', LOCAL_AUTH: 'maybe' });
    for (const name of ['PORT', 'LOG_LEVEL', 'API_KEY', 'RATE_LIMIT_BURST', 'LOCAL_AUTH']) {
      expect(problems.some((problem) => problem.startsWith(name))).toBe(true);
    }
  });

  test('refuses out-of-range numbers', () => {
    expect(problemsOf({ PORT: '70000' }).some((problem) => problem.startsWith('PORT'))).toBe(true);
    expect(problemsOf({ WORKER_CONCURRENCY: '-1' }).some((problem) => problem.startsWith('WORKER_CONCURRENCY'))).toBe(true);
    expect(problemsOf({ STALE_JOB_MINUTES: '0' }).some((problem) => problem.startsWith('STALE_JOB_MINUTES'))).toBe(true);
  });

  test('the error message lists the problems', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/Invalid configuration[\s\S]*PORT/);
  });

  describe('rules across settings', () => {
    test('OIDC_ISSUER needs OIDC_AUDIENCE', () => {
      expect(problemsOf({ OIDC_ISSUER: 'https://idp.example' })).toEqual([expect.stringMatching(/^OIDC_AUDIENCE/)]);
      const config = loadConfig({ OIDC_ISSUER: 'https://idp.example', OIDC_AUDIENCE: 'callscope' });
      expect(config.OIDC_AUDIENCE).toBe('callscope');
      expect(hasIdentitySource(config)).toBe(true);
    });

    test('a JWKS source needs the issuer and audience', () => {
      const problems = problemsOf({ OIDC_JWKS_URL: 'https://idp.example/jwks.json' });
      expect(problems.some((problem) => problem.startsWith('OIDC_AUDIENCE'))).toBe(true);
      expect(problems.some((problem) => problem.startsWith('OIDC_ISSUER'))).toBe(true);
    });

    test('a JWKS URL and a JWKS file cannot both be set', () => {
      const problems = problemsOf({
        OIDC_ISSUER: 'https://idp.example', OIDC_AUDIENCE: 'callscope',
        OIDC_JWKS_URL: 'https://idp.example/jwks.json', OIDC_JWKS_FILE: '/etc/callscope/jwks.json',
      });
      expect(problems).toEqual([expect.stringMatching(/OIDC_JWKS_URL.*OIDC_JWKS_FILE/)]);
    });

    test('IDP_USER_DELETE_URL must contain {sub}', () => {
      expect(problemsOf({ IDP_USER_DELETE_URL: 'https://idp.example/users' })).toEqual([expect.stringMatching(/^IDP_USER_DELETE_URL/)]);
      expect(loadConfig({ IDP_USER_DELETE_URL: 'https://idp.example/users/{sub}' }).IDP_USER_DELETE_URL).toBe('https://idp.example/users/{sub}');
    });

    test('voice sample limits and match thresholds must be in order', () => {
      expect(problemsOf({ SERVICE_VOICE_SAMPLE_MIN_SECONDS: '30', SERVICE_VOICE_SAMPLE_MAX_SECONDS: '20' })).toEqual([expect.stringMatching(/^SERVICE_VOICE_SAMPLE_MIN_SECONDS/)]);
      expect(problemsOf({ SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD: '0.9', SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD: '0.8' })).toEqual([expect.stringMatching(/^SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD/)]);
      expect(loadConfig({ SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD: '0.9', SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD: '0.9' }).SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD).toBe(0.9);
    });

    test('field and cross-field problems are reported together', () => {
      const problems = problemsOf({ PORT: 'eighty', OIDC_ISSUER: 'https://idp.example' });
      expect(problems.some((problem) => problem.startsWith('PORT'))).toBe(true);
      expect(problems.some((problem) => problem.startsWith('OIDC_AUDIENCE'))).toBe(true);
    });
  });
});

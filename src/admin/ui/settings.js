// Settings: grouped fields with their source (env/stored/default), read-only when set by the
// environment, saved with PATCH (only changed values) and per-field errors; the API key
// (generate/rotate, shown once, remove); the admin audit list.
import {
  api, applyFieldProblems, byId, describeValue, el, errorText, fillTable,
  requireSession, setFieldError, showMessage, timeElement, whileBusy,
} from './admin.js';

const bytesPerMb = 1024 * 1024;

/** How each known setting is shown; others get a label from their key and a type from their value. */
const fields = {
  OIDC_ISSUER: { group: 'identity', label: 'Issuer', type: 'text' },
  OIDC_AUDIENCE: { group: 'identity', label: 'Audience (client id)', type: 'text' },
  OIDC_JWKS_URL: { group: 'identity', label: 'JWKS URL', type: 'url' },
  OIDC_JWKS_FILE: { group: 'identity', label: 'JWKS file', type: 'text' },
  LOCAL_AUTH: { group: 'access', label: 'Local-user mode (accept X-Local-User-Id instead of an identity-provider token)', type: 'boolean' },
  SERVICE_VOICE_EMBEDDING_ENABLED: { group: 'voice', label: 'Voice profiles enabled', type: 'boolean' },
  SERVICE_VOICE_CONSENT_VERSION: { group: 'voice', label: 'Consent version', type: 'text' },
  SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD: { group: 'voice', label: 'High-confidence match threshold', type: 'number', min: 0, max: 1, step: 0.01 },
  SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD: { group: 'voice', label: 'Medium-confidence match threshold', type: 'number', min: 0, max: 1, step: 0.01 },
  MAX_FILE_SIZE: { group: 'processing', label: 'Upload size limit', type: 'mb', unit: 'MB', min: 0.001, step: 'any' },
  AUDIO_RETENTION_DAYS: { group: 'processing', label: 'Audio retention', type: 'integer', unit: 'days', min: 0, step: 1 },
  CALL_RETENTION_DAYS: { group: 'processing', label: 'Call retention (0 keeps calls)', type: 'integer', unit: 'days', min: 0, step: 1 },
  STALE_JOB_MINUTES: { group: 'processing', label: 'Stale-job timeout', type: 'integer', unit: 'minutes', min: 1, step: 1 },
  REDACT: { group: 'processing', label: 'Redact from calls (comma-separated: card, iban, national_id, date_of_birth, email, phone; or none)', type: 'text' },
  TRANSCRIPTION_PROVIDER: { group: 'inference', label: 'Speech recognition runs (local or openai)', type: 'text' },
  TRANSCRIPTION_URL: { group: 'inference', label: 'Transcription server URL', type: 'url' },
  TRANSCRIPTION_MODEL_NAME: { group: 'inference', label: 'Transcription model name', type: 'text' },
  TRANSCRIPTION_API_KEY: { group: 'inference', label: 'Transcription server API key', type: 'text' },
  TRANSCRIPTION_TIMEOUT_SECONDS: { group: 'inference', label: 'Transcription timeout', type: 'integer', unit: 'seconds', min: 10, step: 1 },
  TRANSCRIPTION_VOCABULARY: { group: 'inference', label: 'Vocabulary for speech recognition (one term per line)', type: 'multiline', rows: 6, maxLength: 2000 },
  LLM_PROVIDER: { group: 'inference', label: 'Language model runs (local or openai)', type: 'text' },
  LLM_URL: { group: 'inference', label: 'Chat server URL (chat completions)', type: 'url' },
  LLM_MODEL_NAME: { group: 'inference', label: 'Chat model name', type: 'text' },
  LLM_API_KEY: { group: 'inference', label: 'Chat server API key', type: 'text' },
  LLM_TIMEOUT_SECONDS: { group: 'inference', label: 'Chat timeout per chunk', type: 'integer', unit: 'seconds', min: 10, step: 1 },
  WEBHOOK_URLS: { group: 'webhooks', label: 'Webhook endpoints (comma-separated URLs)', type: 'text' },
  WEBHOOK_INCLUDE_TRANSCRIPT: { group: 'webhooks', label: 'Include the transcript text in call.completed webhooks', type: 'boolean' },
};

function groupOf(key) {
  if (fields[key]) return fields[key].group;
  if (/^(OIDC|IDP)_/.test(key)) return 'identity';
  if (key.startsWith('SERVICE_VOICE_')) return 'voice';
  if (/^(LOCAL_AUTH|API_KEY|TRUST_PROXY|METRICS_TOKEN|RATE_LIMIT)/.test(key)) return 'access';
  return 'other';
}

function typeOf(setting) {
  const known = fields[setting.key]?.type;
  if (known) return known;
  if (typeof setting.value === 'boolean') return 'boolean';
  if (typeof setting.value === 'number') return Number.isInteger(setting.value) ? 'integer' : 'number';
  return 'text';
}

function labelOf(key) {
  return fields[key]?.label ?? key.toLowerCase().split('_').join(' ').replace(/^./, (first) => first.toUpperCase());
}

const idOf = (key) => `setting-${key}`;

/** The schema's descriptions mark names with backticks: those parts become <code>. */
function withCode(text) {
  return text.split('`').map((part, index) => (index % 2 === 1 ? el('code', { text: part }) : part));
}

/** The value as the input shows it. */
function displayValue(setting, type) {
  const { value } = setting;
  if (value === null || value === undefined) return '';
  if (type === 'mb') return typeof value === 'number' ? String(Math.round((value / bytesPerMb) * 1000) / 1000) : String(value);
  return String(value);
}

function sourceBadge(source) {
  const kind = { env: 'info', stored: 'ok', default: 'neutral' }[source] ?? 'neutral';
  return el('span', { class: `badge badge-${kind}`, 'data-source': source }, el('span', { class: 'visually-hidden', text: 'Source: ' }), String(source ?? 'unknown'));
}

/** Rendered settings: key → {setting, type, input, initial}. */
let rendered = new Map();
let lastSettings = null;

function renderSetting(setting) {
  const type = typeOf(setting);
  const spec = fields[setting.key] ?? {};
  const id = idOf(setting.key);
  const fromEnv = setting.source === 'env';
  const readOnly = fromEnv || !setting.editable;
  const describedBy = [`${id}-hint`, `${id}-notes`];

  let input;
  if (type === 'boolean') {
    input = el('input', { id, name: setting.key, type: 'checkbox', checked: setting.value === true || setting.value === 'true', disabled: readOnly });
  } else if (type === 'multiline') {
    // Terms are stored comma- or newline-separated; shown one per line.
    input = el('textarea', {
      id, name: setting.key, rows: String(spec.rows ?? 4), maxlength: spec.maxLength !== undefined ? String(spec.maxLength) : undefined,
      readOnly, autocomplete: 'off', spellcheck: 'false',
    });
    input.value = displayValue(setting, type).split(/\s*,\s*/).join('\n');
  } else {
    const numeric = type === 'number' || type === 'integer' || type === 'mb';
    input = el('input', {
      id,
      name: setting.key,
      type: setting.secret ? 'password' : numeric ? 'number' : type === 'url' ? 'url' : 'text',
      inputmode: type === 'integer' ? 'numeric' : numeric ? 'decimal' : undefined,
      min: spec.min !== undefined ? String(spec.min) : undefined,
      max: spec.max !== undefined ? String(spec.max) : undefined,
      step: spec.step !== undefined ? String(spec.step) : numeric ? 'any' : undefined,
      value: setting.secret ? '' : displayValue(setting, type),
      placeholder: setting.secret && setting.value !== null && setting.value !== '' ? 'Set (hidden). Type a new value to replace it.' : undefined,
      readOnly,
      autocomplete: 'off',
      spellcheck: 'false',
    });
  }
  input.setAttribute('aria-describedby', describedBy.join(' '));

  const notes = [];
  if (fromEnv) notes.push(el('span', { text: 'Set by the environment: change it there.' }));
  else if (!setting.editable) notes.push(el('span', { text: 'Not editable here.' }));
  if (setting.restartRequired) notes.push(el('span', { class: 'badge badge-warn', text: 'Restart required' }), el('span', { text: 'The saved value takes effect at the next start.' }));
  else if (!readOnly) notes.push(el('span', { text: setting.live ? 'Applies immediately.' : 'Applies after a restart.' }));
  if (type === 'mb' && typeof setting.value === 'number') notes.push(el('span', { text: `${setting.value.toLocaleString('en')} bytes (1 MB = 1,048,576 bytes).` }));

  const labelText = spec.unit ? `${labelOf(setting.key)} (${spec.unit})` : labelOf(setting.key);
  const head = type === 'boolean'
    ? el('div', { class: 'field-head' }, el('span', { class: 'checkbox' }, input, el('label', { for: id, text: labelText })), sourceBadge(setting.source), el('code', { text: setting.key }))
    : el('div', { class: 'field-head' }, el('label', { for: id, text: labelText }), sourceBadge(setting.source), el('code', { text: setting.key }));

  const body = type === 'boolean' ? null : spec.unit ? el('div', { class: 'unit-input' }, input, el('span', { 'aria-hidden': 'true', text: spec.unit })) : input;

  const node = el('div', { class: 'setting field', 'data-key': setting.key },
    head,
    body,
    el('span', { id: `${id}-hint`, class: 'hint' }, withCode(setting.description ?? '')),
    el('div', { id: `${id}-notes`, class: 'notes' }, notes),
  );
  rendered.set(setting.key, { setting, type, input, initial: type === 'boolean' ? input.checked : input.value });
  return node;
}

function renderSettings(data) {
  lastSettings = data;
  rendered = new Map();
  const lists = {};
  for (const group of ['identity', 'access', 'voice', 'processing', 'inference', 'webhooks', 'other']) {
    lists[group] = document.querySelector(`#group-${group} .settings-list`);
    lists[group].replaceChildren();
  }
  const order = Object.keys(fields);
  const settings = [...(data.settings ?? [])].sort((a, b) => {
    const ia = order.indexOf(a.key);
    const ib = order.indexOf(b.key);
    return (ia === -1 ? 999 : ia) - (ib === -1 ? 999 : ib) || a.key.localeCompare(b.key);
  });
  for (const setting of settings) lists[groupOf(setting.key)].append(renderSetting(setting));
  byId('group-other').hidden = lists.other.childElementCount === 0;
  renderApiKey(data.apiKey ?? { configured: false, source: 'none' });
  renderWebhookSecret(data.transcriptionWebhookSecret ?? { configured: false, source: 'none' });
}

/** The callback secret's state; generating is refused while the environment sets it. */
function renderWebhookSecret(secret) {
  byId('webhook-secret-source').replaceChildren(sourceBadge(secret.source === 'none' ? 'default' : secret.source));
  byId('webhook-secret-state').textContent = secret.source === 'env'
    ? 'Set by the environment (TRANSCRIPTION_WEBHOOK_SECRET): change it there.'
    : secret.configured ? 'A secret is in force; generating a new one replaces it.' : 'No secret yet: callbacks are refused until one is generated.';
  byId('webhook-secret-generate').disabled = secret.source === 'env';
  byId('webhook-secret-generate').textContent = secret.configured ? 'Rotate callback secret' : 'Generate callback secret';
}

/** The changed values, converted to what the API stores; problems for inputs that do not parse. */
function collectChanges() {
  const values = {};
  const problems = [];
  for (const [key, { setting, type, input, initial }] of rendered) {
    if (input.disabled || input.readOnly) continue;
    if (type === 'boolean') {
      if (input.checked !== initial) values[key] = input.checked;
      continue;
    }
    const raw = input.value.trim();
    if (setting.secret) {
      if (raw) values[key] = raw;
      continue;
    }
    if (raw === String(initial).trim()) continue;
    if (raw === '') {
      values[key] = null;
      continue;
    }
    if (type === 'text' || type === 'url' || type === 'multiline') {
      values[key] = raw;
      continue;
    }
    const number = Number(raw);
    if (!Number.isFinite(number) || input.validity.badInput) {
      problems.push([input, 'Enter a number.']);
      continue;
    }
    if (type === 'integer' && !Number.isInteger(number)) {
      problems.push([input, 'Enter a whole number.']);
      continue;
    }
    values[key] = type === 'mb' ? Math.round(number * bytesPerMb) : number;
  }
  return { values, problems };
}

const form = byId('settings-form');
const saveMessage = byId('settings-save-message');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  for (const { input } of rendered.values()) setFieldError(input, '');
  showMessage(saveMessage, '');
  const { values, problems } = collectChanges();
  if (problems.length > 0) {
    for (const [input, text] of problems) setFieldError(input, text);
    showMessage(saveMessage, 'Please correct the highlighted fields.', 'error');
    problems[0][0].focus();
    return;
  }
  const keys = Object.keys(values);
  if (keys.length === 0) {
    showMessage(saveMessage, 'Nothing to save: no setting was changed.', 'info');
    return;
  }
  await whileBusy(form, async () => {
    try {
      const data = await api('PATCH', '/settings', { values });
      renderSettings(data);
      const restart = keys.filter((key) => data.settings?.find((setting) => setting.key === key)?.restartRequired).map(labelOf);
      const saved = `Saved: ${keys.map(labelOf).join(', ')}.`;
      showMessage(saveMessage, restart.length > 0 ? `${saved} Restart Callscope for these to take effect: ${restart.join(', ')}.` : saved, restart.length > 0 ? 'warning' : 'success');
      void loadAudit();
    } catch (error) {
      if (error.status === 401) return;
      const inputs = Object.fromEntries([...rendered].map(([key, entry]) => [key, entry.input]));
      const marked = applyFieldProblems(error, inputs);
      showMessage(saveMessage, marked.length > 0 ? `Not saved. ${errorText(error)}` : `Not saved: ${errorText(error)}`, 'error');
      (marked[0] ?? byId('settings-save')).focus();
    }
  });
});

byId('settings-undo').addEventListener('click', () => {
  if (lastSettings) renderSettings(lastSettings);
  showMessage(saveMessage, 'Changes undone.', 'info');
});

// ---------------------------------------------------------------- API key

const keyMessage = byId('api-key-message');
const generate = byId('api-key-generate');
const remove = byId('api-key-remove');
const newKeyBox = byId('api-key-new');
const newKeyValue = byId('api-key-value');

function renderApiKey(apiKey) {
  const source = apiKey.source ?? (apiKey.configured ? 'stored' : 'none');
  byId('api-key-source').replaceChildren(source === 'none' ? el('span', { class: 'badge badge-neutral', 'data-source': 'none', text: 'not set' }) : sourceBadge(source));
  const state = byId('api-key-state');
  state.classList.remove('muted');
  if (source === 'env') {
    state.textContent = 'An API key is set by the environment (API_KEY). Change or remove it there; it cannot be rotated here.';
  } else if (apiKey.configured) {
    state.replaceChildren('An API key is configured', apiKey.createdAt ? ' (created ' : '', apiKey.createdAt ? timeElement(apiKey.createdAt) : '', apiKey.createdAt ? ')' : '', '.');
  } else {
    state.textContent = 'No API key: requests to /api need no key. Generate one for production.';
  }
  generate.textContent = apiKey.configured ? 'Rotate API key' : 'Generate API key';
  generate.disabled = source === 'env';
  remove.hidden = !apiKey.configured || source === 'env';
}

function hideNewKey() {
  newKeyValue.value = '';
  newKeyBox.hidden = true;
}

generate.addEventListener('click', async () => {
  const rotating = Boolean(lastSettings?.apiKey?.configured);
  if (rotating && !window.confirm('Rotate the API key? The current key stops working at once; every app must be given the new key.')) return;
  showMessage(keyMessage, '');
  generate.disabled = true;
  try {
    const { apiKey } = await api('POST', '/api-key');
    newKeyValue.value = apiKey;
    newKeyBox.hidden = false;
    showMessage(keyMessage, rotating ? 'New API key created; the old key no longer works. Copy it now.' : 'API key created. Copy it now.', 'warning');
    newKeyValue.focus();
    newKeyValue.select();
    await refreshSettings();
    void loadAudit();
  } catch (error) {
    if (error.status !== 401) showMessage(keyMessage, `The key was not changed: ${error.message}`, 'error');
  } finally {
    generate.disabled = lastSettings?.apiKey?.source === 'env';
  }
});

byId('api-key-copy').addEventListener('click', async () => {
  const key = newKeyValue.value;
  let copied = false;
  try {
    // The clipboard API needs a secure context (https or localhost); the box is often plain http on the LAN.
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(key);
      copied = true;
    }
  } catch {
    copied = false;
  }
  if (!copied) {
    newKeyValue.focus();
    newKeyValue.select();
    try { copied = document.execCommand('copy'); } catch { copied = false; }
  }
  showMessage(keyMessage, copied ? 'API key copied to the clipboard.' : 'Could not copy automatically: the key is selected, press Ctrl+C (⌘C) to copy it.', copied ? 'success' : 'warning');
});

byId('api-key-done').addEventListener('click', () => {
  hideNewKey();
  showMessage(keyMessage, '');
  generate.focus();
});

remove.addEventListener('click', async () => {
  if (!window.confirm('Remove the API key? Requests to /api will then need no key.')) return;
  showMessage(keyMessage, '');
  remove.disabled = true;
  try {
    await api('DELETE', '/api-key');
    hideNewKey();
    showMessage(keyMessage, 'API key removed: requests to /api need no key now.', 'success');
    await refreshSettings();
    generate.focus();
    void loadAudit();
  } catch (error) {
    if (error.status !== 401) showMessage(keyMessage, `The key was not removed: ${error.message}`, 'error');
  } finally {
    remove.disabled = false;
  }
});

// ---------------------------------------------------------------- audit

async function loadAudit() {
  try {
    const { entries } = await api('GET', '/audit?limit=50');
    fillTable(byId('audit-body'), (entries ?? []).map((entry) => el('tr', {},
      el('td', {}, timeElement(entry.at)),
      el('td', { text: entry.actor ?? '–' }),
      el('td', {}, el('code', { text: entry.action ?? '–' })),
      el('td', { class: 'break', text: describeValue(entry.target) }),
      el('td', { class: 'break audit-detail', text: describeValue(entry.detail) }),
      el('td', { text: entry.clientIp ?? '–' }))), 'No admin activity yet.');
    showMessage(byId('audit-message'), '');
  } catch (error) {
    if (error.status !== 401) showMessage(byId('audit-message'), `Could not load the activity: ${error.message}`, 'error');
  }
}

byId('audit-refresh').addEventListener('click', () => void loadAudit());

// ---------------------------------------------------------------- start

async function refreshSettings() {
  renderSettings(await api('GET', '/settings'));
}

byId('webhook-secret-generate').addEventListener('click', async () => {
  const message = byId('webhook-secret-message');
  try {
    const { secret } = await api('POST', '/transcription-webhook-secret');
    byId('webhook-secret-value').value = secret;
    byId('webhook-secret-new').hidden = false;
    showMessage(message, 'A new callback secret is in force; the old one no longer verifies.', 'success');
    renderWebhookSecret({ configured: true, source: 'stored' });
  } catch (error) {
    if (error.status !== 401) showMessage(message, errorText(error), 'error');
  }
});

/** The "Test" buttons: one second of audio, or one short prompt, to the providers as saved. */
for (const [button, path, region] of [
  ['test-transcription', '/inference/transcription/test', 'test-transcription-result'],
  ['test-language-model', '/inference/language-model/test', 'test-language-model-result'],
]) {
  byId(button).addEventListener('click', async () => {
    const target = byId(region);
    const trigger = byId(button);
    trigger.disabled = true;
    showMessage(target, 'Testing…', 'info');
    try {
      const result = await api('POST', path);
      const where = result.host ? ` (${result.host})` : '';
      showMessage(target, result.ok
        ? `Answered in ${result.seconds} s by ${result.provider}${where}: ${result.answer}`
        : `Failed after ${result.seconds} s (${result.provider}${where}): ${result.problem}`, result.ok ? 'success' : 'error');
    } catch (error) {
      if (error.status !== 401) showMessage(target, errorText(error), 'error');
    } finally {
      trigger.disabled = false;
    }
  });
}

try {
  await requireSession();
  await refreshSettings();
  await loadAudit();
} catch (error) {
  if (error.status !== 401) showMessage(byId('settings-message'), `Could not load the settings: ${error.message}`, 'error');
}


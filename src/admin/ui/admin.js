// Shared code of the admin pages: the API client (CSRF header, error envelope, 401 handling),
// small DOM helpers, formatting, and the signed-in chrome (sign-out, change password).
// Plain ES module, no dependencies; every text from the server goes in via textContent.

const apiBase = '/admin/api';

/** Admin pages a `next` parameter may point at (no open redirects). */
const pagePaths = new Set(['/admin/status', '/admin/models', '/admin/settings', '/admin/webhooks', '/admin/certificate', '/admin/retention', '/admin/voice-profiles', '/admin/audit']);

let csrfToken = null;

/** An API error: the HTTP status plus the envelope's code, message and details. */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details ?? {};
  }
}

export function setCsrfToken(token) {
  csrfToken = token ?? null;
}

/**
 * Calls the admin API. `body` is sent as JSON. Answers the parsed JSON (null for 204).
 * A 401 sends the browser to sign-in (or setup) unless `redirectOn401` is false; every other
 * failure throws an ApiError carrying the server's code and message.
 */
export async function api(method, path, body, { redirectOn401 = true } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response;
  try {
    response = await fetch(apiBase + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check that Callscope is running and try again.');
  }
  if (response.status === 204) return null;
  let payload = null;
  const text = await response.text();
  if (text) {
    try { payload = JSON.parse(text); } catch { payload = null; }
  }
  if (response.ok) return payload;
  const error = payload && typeof payload === 'object' && payload.error ? payload.error : {};
  const failure = new ApiError(
    response.status,
    error.code ?? `http_${response.status}`,
    error.message ?? `The server answered ${response.status} ${response.statusText}`.trim(),
    error.details,
  );
  if (response.status === 401 && redirectOn401) {
    await goToSignIn();
  }
  throw failure;
}

/** Sends the browser to setup (first run) or to sign-in, remembering the current page. */
export async function goToSignIn() {
  let setupRequired = false;
  try {
    const setup = await api('GET', '/setup', undefined, { redirectOn401: false });
    setupRequired = Boolean(setup && setup.setupRequired);
  } catch {
    // Fall through to the sign-in page, which reports the problem itself.
  }
  if (setupRequired) {
    window.location.replace('/admin/setup');
    return;
  }
  const here = window.location.pathname.replace(/\/+$/, '');
  const next = pagePaths.has(here) ? `?next=${encodeURIComponent(here)}` : '';
  window.location.replace(`/admin/login${next}`);
}

/** Where to go after sign-in: the `next` page when it is one of ours, else status. */
export function nextPage() {
  const next = new URLSearchParams(window.location.search).get('next');
  return next && pagePaths.has(next) ? next : '/admin/status';
}

/**
 * For signed-in pages: checks the session (401 → sign-in), keeps its CSRF token for
 * state-changing calls and wires the top bar. Answers the session.
 */
export async function requireSession() {
  const session = await api('GET', '/session');
  setCsrfToken(session.csrfToken);
  initChrome();
  return session;
}

// ---------------------------------------------------------------- DOM helpers

/**
 * Creates an element. `attrs`: attributes (class, id, for, aria-*, data-*), with `text`
 * for textContent and on* functions for listeners; children: nodes or strings.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (name in node && typeof value !== 'string') node[name] = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from the page`);
  return node;
}

/** Shows a message in an aria-live region; kind: error, success, warning or info. Empty clears. */
export function showMessage(region, text, kind = 'info') {
  region.classList.remove('error', 'success', 'warning', 'info');
  if (!text) {
    region.textContent = '';
    return;
  }
  region.classList.add(kind);
  region.textContent = text;
}

/** Marks a field invalid with a message linked by aria-describedby (empty message clears). */
export function setFieldError(input, message) {
  const errorId = `${input.id}-error`;
  let holder = document.getElementById(errorId);
  if (!holder) {
    holder = el('span', { id: errorId, class: 'field-error' });
    const field = input.closest('.field') ?? input.parentElement;
    field.append(holder);
  }
  holder.textContent = message ?? '';
  const describedBy = new Set((input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean));
  if (message) {
    input.setAttribute('aria-invalid', 'true');
    describedBy.add(errorId);
  } else {
    input.removeAttribute('aria-invalid');
  }
  if (describedBy.size > 0) input.setAttribute('aria-describedby', [...describedBy].join(' '));
}

/** Disables a form's controls while `work` runs (prevents double submits). */
export async function whileBusy(form, work) {
  const controls = [...form.querySelectorAll('button, input, select, textarea')].filter((control) => !control.disabled);
  form.setAttribute('aria-busy', 'true');
  for (const control of controls) control.disabled = true;
  try {
    return await work();
  } finally {
    for (const control of controls) control.disabled = false;
    form.removeAttribute('aria-busy');
  }
}

/** Puts rows into a table body; an empty list shows `emptyText` across all columns. */
export function fillTable(tbody, rows, emptyText) {
  tbody.replaceChildren();
  if (rows.length === 0) {
    const columns = tbody.closest('table')?.querySelectorAll('thead th').length ?? 1;
    tbody.append(el('tr', {}, el('td', { class: 'empty', colspan: String(columns), text: emptyText })));
    return;
  }
  tbody.append(...rows);
}

// ---------------------------------------------------------------- formatting

const numberFormat = new Intl.NumberFormat('en');

export function formatNumber(value) {
  return typeof value === 'number' && Number.isFinite(value) ? numberFormat.format(value) : '–';
}

/** 1536 → "1.5 KiB"; null → "–". */
export function formatBytes(bytes) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '–';
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${numberFormat.format(value)} bytes`;
  return `${value.toLocaleString('en', { maximumFractionDigits: value < 10 ? 2 : 1 })} ${units[unit]}`;
}

/** Milliseconds → "850 ms", "12.3 s", "4 min 5 s". */
export function formatMs(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;
  return formatSeconds(Math.round(ms / 1000));
}

/** Seconds → "45 s", "4 min 5 s", "2 h 3 min". */
export function formatSeconds(total) {
  const seconds = Math.max(0, Math.ceil(total));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) {
    const rest = seconds % 60;
    return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`;
  }
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${Math.floor(seconds / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/** ISO time → local date and time, as a <time> element. */
export function timeElement(iso) {
  if (!iso) return document.createTextNode('–');
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return document.createTextNode(String(iso));
  return el('time', { datetime: date.toISOString(), text: date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' }) });
}

/** Any value as short text for a table cell (objects as `key: value` pairs). */
export function describeValue(value) {
  if (value === undefined || value === null || value === '') return '–';
  if (typeof value === 'object') {
    if (Array.isArray(value)) return value.map(describeValue).join(', ');
    return Object.entries(value).map(([key, inner]) => `${key}: ${typeof inner === 'object' && inner !== null ? JSON.stringify(inner) : inner}`).join(', ');
  }
  return String(value);
}

/** Ends a message with a full stop unless it already ends with punctuation. */
export function sentence(text) {
  const trimmed = String(text ?? '').trim();
  return !trimmed || /[.!?:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Detail values worth a second look (a model missing or damaged). */
const badDetailValues = new Set(['missing', 'checksum_mismatch', 'DOWN', 'failed']);

/** An object as a list of `key: value` lines (a readiness check's detail); other values as text. */
export function detailList(value) {
  if (value === null || typeof value !== 'object') return document.createTextNode(describeValue(value));
  if (Array.isArray(value)) {
    return value.length === 0 ? document.createTextNode('–') : el('ul', { class: 'bulleted' }, value.map((item) => el('li', { text: describeValue(item) })));
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return document.createTextNode('–');
  return el('ul', { class: 'plain' }, entries.map(([key, inner]) => el('li', {},
    el('span', { class: 'muted', text: `${key}: ` }),
    Array.isArray(inner) ? detailList(inner) : el('span', { class: badDetailValues.has(String(inner)) ? 'text-bad' : undefined, text: describeValue(inner) }))));
}

/** A status word (UP/DOWN/…) as a coloured badge whose text carries the meaning. */
export function statusBadge(status, { large = false } = {}) {
  const word = String(status ?? 'UNKNOWN').toUpperCase();
  const kind = ['UP', 'OK', 'PASS'].includes(word) ? 'ok' : ['DOWN', 'FAIL', 'ERROR', 'LOST'].includes(word) ? 'bad' : 'warn';
  return el('span', { class: `badge badge-${kind}${large ? ' badge-large' : ''}`, text: word });
}

// ---------------------------------------------------------------- signed-in chrome

let chromeReady = false;

/** Marks the current nav link, wires sign-out and the change-password dialog. */
export function initChrome() {
  if (chromeReady) return;
  chromeReady = true;
  const here = window.location.pathname.replace(/\/+$/, '').replace(/\.html$/, '');
  for (const link of document.querySelectorAll('.topbar nav a')) {
    if (link.getAttribute('href') === here) link.setAttribute('aria-current', 'page');
  }
  const signOut = document.getElementById('sign-out-button');
  signOut?.addEventListener('click', async () => {
    signOut.disabled = true;
    try {
      await api('DELETE', '/session', undefined, { redirectOn401: false });
    } catch {
      // Signed out already, or the server is gone: the sign-in page says which.
    }
    setCsrfToken(null);
    window.location.assign('/admin/login');
  });
  const changePassword = document.getElementById('change-password-button');
  if (changePassword) {
    const dialog = buildPasswordDialog();
    document.body.append(dialog);
    changePassword.addEventListener('click', () => {
      dialog.querySelector('form').reset();
      for (const input of dialog.querySelectorAll('input')) setFieldError(input, '');
      showMessage(dialog.querySelector('.message'), '');
      dialog.showModal();
    });
  }
}

function passwordField(id, label, autocomplete, hint) {
  return el('div', { class: 'field' },
    el('label', { for: id, text: label }),
    el('input', { id, name: id, type: 'password', autocomplete, required: true, ...(hint ? { 'aria-describedby': `${id}-hint` } : {}) }),
    hint ? el('span', { id: `${id}-hint`, class: 'hint', text: hint }) : null,
  );
}

function buildPasswordDialog() {
  const message = el('div', { class: 'message', role: 'status', 'aria-live': 'polite' });
  const form = el('form', { novalidate: true },
    passwordField('current-password', 'Current password', 'current-password'),
    passwordField('new-password', 'New password', 'new-password', 'At least 12 characters.'),
    passwordField('confirm-new-password', 'Repeat the new password', 'new-password'),
    message,
    el('div', { class: 'actions' },
      el('button', { type: 'submit', text: 'Change password' }),
      el('button', { type: 'button', class: 'secondary', 'data-close': '', text: 'Cancel' }),
    ),
  );
  const dialog = el('dialog', { id: 'password-dialog', 'aria-labelledby': 'password-dialog-title' },
    el('h2', { id: 'password-dialog-title', text: 'Change the admin password' }),
    form,
  );
  form.querySelector('[data-close]').addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const current = form.querySelector('#current-password');
    const next = form.querySelector('#new-password');
    const confirm = form.querySelector('#confirm-new-password');
    for (const input of [current, next, confirm]) setFieldError(input, '');
    showMessage(message, '');
    const problems = [];
    if (!current.value) problems.push([current, 'Enter your current password.']);
    if (next.value.length < 12) problems.push([next, 'The new password needs at least 12 characters.']);
    else if (confirm.value !== next.value) problems.push([confirm, 'The two new passwords do not match.']);
    if (problems.length > 0) {
      for (const [input, text] of problems) setFieldError(input, text);
      problems[0][0].focus();
      showMessage(message, 'Please correct the highlighted fields.', 'error');
      return;
    }
    await whileBusy(form, async () => {
      try {
        await api('POST', '/password', { currentPassword: current.value, newPassword: next.value }, { redirectOn401: false });
        form.reset();
        showMessage(message, 'Password changed. Use the new password the next time you sign in.', 'success');
      } catch (error) {
        if (error.status === 401 && !(await sessionAlive())) {
          await goToSignIn();
          return;
        }
        const text = error.status === 401 ? 'The current password is not correct.' : error.message;
        if (error.status === 401) setFieldError(current, 'Not the current password.');
        applyFieldProblems(error, { currentPassword: current, newPassword: next });
        showMessage(message, text, 'error');
      }
    });
  });
  return dialog;
}

/** True while the admin session is still valid (a 401 elsewhere then meant something else). */
async function sessionAlive() {
  try {
    await api('GET', '/session', undefined, { redirectOn401: false });
    return true;
  } catch {
    return false;
  }
}

/** The server's message, followed by its field problems when it sent any. */
export function errorText(error) {
  const fields = error?.details?.fields;
  if (!fields) return error.message;
  const parts = Array.isArray(fields)
    ? fields.map((problem) => `${String(problem.path ?? problem.field ?? problem.key ?? '').split('/').pop()} ${problem.message ?? 'is not valid'}`.trim())
    : Object.entries(fields).map(([key, text]) => `${key}: ${typeof text === 'string' ? text : describeValue(text)}`);
  return parts.length > 0 ? `${error.message}: ${parts.join('; ')}.` : error.message;
}

/**
 * Maps `details.fields` of a validation error onto inputs. Accepts a list of
 * `{path|field|key, message}` (the API's shape: path like `body/values/KEY`) or an object
 * `{KEY: message}`. `inputs`: field name → input. Answers the inputs that got a message.
 */
export function applyFieldProblems(error, inputs) {
  const marked = [];
  const fields = error?.details?.fields;
  if (!fields) return marked;
  const problems = Array.isArray(fields)
    ? fields.map((problem) => [String(problem.path ?? problem.field ?? problem.key ?? ''), String(problem.message ?? 'is not valid')])
    : Object.entries(fields).map(([key, text]) => [key, typeof text === 'string' ? text : describeValue(text)]);
  for (const [path, text] of problems) {
    const name = Object.keys(inputs).find((key) => path === key || path.endsWith(`/${key}`) || path.endsWith(`.${key}`) || path.split('/').includes(key));
    if (!name) continue;
    const input = inputs[name];
    // The API's messages are fragments ("must be …"): as a sentence of their own beside the field.
    setFieldError(input, sentence(text.charAt(0).toUpperCase() + text.slice(1)));
    marked.push(input);
  }
  return marked;
}

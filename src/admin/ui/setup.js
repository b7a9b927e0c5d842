// First-run setup: the one-time token from the link plus a new admin password.
import { api, applyFieldProblems, byId, errorText, sentence, setFieldError, showMessage, whileBusy } from './admin.js';

const form = byId('setup-form');
const message = byId('setup-message');
const tokenInput = byId('setup-token');
const password = byId('setup-password');
const confirm = byId('setup-confirm');

// Read the token once, then take it out of the address bar (and so out of history and
// bookmarks). It lives only in this page's memory from here on.
const params = new URLSearchParams(window.location.search);
const linkToken = params.get('token');
if (params.has('token')) {
  params.delete('token');
  const query = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`);
}

async function start() {
  try {
    const setup = await api('GET', '/setup', undefined, { redirectOn401: false });
    if (!setup.setupRequired) {
      byId('setup-done').hidden = false;
      return;
    }
  } catch (error) {
    showMessage(message, `Could not ask the server whether setup is needed: ${error.message}`, 'error');
  }
  if (linkToken) {
    tokenInput.value = linkToken;
    byId('token-note').hidden = false;
  } else {
    byId('token-field').hidden = false;
    showMessage(message, 'This page needs the one-time setup link. Open the link printed when Callscope first started, or paste its token below.', 'warning');
  }
  form.hidden = false;
  (linkToken ? password : tokenInput).focus();
}

function showTokenField() {
  byId('token-field').hidden = false;
  byId('token-note').hidden = true;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  for (const input of [tokenInput, password, confirm]) setFieldError(input, '');
  showMessage(message, '');
  const token = tokenInput.value.trim();
  const problems = [];
  if (!token) problems.push([tokenInput, 'Enter the setup token from the setup link.']);
  if (password.value.length < 12) problems.push([password, `The password needs at least 12 characters (it has ${password.value.length}).`]);
  else if (confirm.value !== password.value) problems.push([confirm, 'The two passwords do not match.']);
  if (problems.length > 0) {
    if (!token) showTokenField();
    for (const [input, text] of problems) setFieldError(input, text);
    showMessage(message, problems.map(([, text]) => text).join(' '), 'error');
    problems[0][0].focus();
    return;
  }
  await whileBusy(form, async () => {
    try {
      await api('POST', '/setup', { token, password: password.value }, { redirectOn401: false });
      showMessage(message, 'Password set. Opening the status page…', 'success');
      window.location.replace('/admin/status');
    } catch (error) {
      if (error.code === 'admin_setup_done') {
        form.hidden = true;
        byId('setup-done').hidden = false;
        showMessage(message, error.message || 'Setup is already done.', 'error');
        return;
      }
      if (error.status === 401) {
        showTokenField();
        setFieldError(tokenInput, 'This token was not accepted.');
        showMessage(message, `${sentence(error.message)} Check that you opened the latest setup link printed by the server.`, 'error');
        tokenInput.focus();
        return;
      }
      if (error.status === 400) {
        const marked = applyFieldProblems(error, { password, token: tokenInput });
        if (marked.length === 0) setFieldError(password, error.message);
        (marked[0] ?? password).focus();
      }
      showMessage(message, errorText(error), 'error');
    }
  });
});

void start();

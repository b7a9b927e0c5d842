// Retention & holds: place a legal hold (user or call, with a reason), list holds and lift them
// (with a reason), and preview what the next call- and audio-retention runs will delete.
// Shows ids, reasons and dates only: never a transcript or phone number.
import {
  api, applyFieldProblems, byId, el, errorText, fillTable, formatNumber, requireSession, setFieldError, showMessage, timeElement, whileBusy,
} from './admin.js';

const placeForm = byId('place-form');
const targetInput = byId('hold-target');
const reasonInput = byId('hold-reason');

function selectedScope() {
  return placeForm.querySelector('input[name="scope"]:checked')?.value ?? 'user';
}

function showScope() {
  placeForm.querySelector('label[for="hold-target"]').textContent = selectedScope() === 'user' ? 'User id' : 'Call id';
}

function holdRow(hold) {
  const cells = [
    el('td', {}, el('span', { class: `badge badge-${hold.active ? 'warn' : 'neutral'}`, text: hold.active ? 'active' : 'lifted' })),
    el('td', { text: hold.scope === 'user' ? 'All calls of the user' : 'One call' }),
    el('td', {}, el('code', { class: 'break', text: hold.userId })),
    el('td', {}, hold.callId ? el('code', { class: 'break', text: hold.callId }) : '–'),
    el('td', { class: 'break' }, hold.reason, hold.liftReason ? el('div', { class: 'small muted', text: `Lifted: ${hold.liftReason}` }) : null),
    el('td', {}, timeElement(hold.placedAt)),
    el('td', {}, hold.liftedAt ? timeElement(hold.liftedAt) : '–'),
  ];
  let action = null;
  if (hold.active) {
    action = el('button', { type: 'button', class: 'secondary', text: 'Lift', 'aria-label': `Lift the hold placed ${hold.placedAt} (${hold.reason})` });
    action.addEventListener('click', () => void liftHold(hold, action));
  }
  return el('tr', {}, ...cells, el('td', {}, action));
}

async function liftHold(hold, button) {
  const message = byId('holds-message');
  const reason = window.prompt('Why is the hold lifted? (required)');
  if (reason === null) return;
  if (reason.trim() === '') {
    showMessage(message, 'Not lifted: a reason is required.', 'error');
    return;
  }
  button.disabled = true;
  try {
    await api('POST', `/legal-holds/${hold.id}/lift`, { reason });
    showMessage(message, 'The hold is lifted; what it covered can be deleted again (unless another hold covers it).', 'success');
    await Promise.all([loadHolds(), loadPreview()]);
  } catch (error) {
    if (error.status !== 401) showMessage(message, `Not lifted: ${errorText(error)}`, 'error');
    button.disabled = false;
  }
}

const callCount = (count) => `${formatNumber(count)} call${count === 1 ? '' : 's'}`;

/** `action` says what a run does to `n` calls, e.g. (n) => `deletes ${n}`. */
function previewSummary(plan, offText, action) {
  if (plan.retentionDays === 0) return offText;
  const held = plan.heldSkipped > 0 ? ` Legal holds keep ${callCount(plan.heldSkipped)} past retention.` : '';
  return `Kept ${formatNumber(plan.retentionDays)} days: the next run ${action(callCount(plan.due))}.${held}`;
}

function previewRow(call) {
  return el('tr', {},
    el('td', {}, el('code', { class: 'break', text: call.callId })),
    el('td', {}, el('code', { class: 'break', text: call.userId })),
    el('td', {}, timeElement(call.since)));
}

async function loadHolds() {
  const { holds } = await api('GET', '/legal-holds?limit=500');
  fillTable(byId('holds-body'), (holds ?? []).map(holdRow), 'No legal hold has been placed.');
}

async function loadPreview() {
  const preview = await api('GET', '/retention/preview');
  byId('preview-calls-summary').textContent = previewSummary(preview.calls, 'Off (0 days): calls are kept until they are deleted.', (calls) => `deletes ${calls}`);
  byId('preview-audio-summary').textContent = previewSummary(preview.audio, 'Off (0 days): audio is kept until its call is deleted.', (calls) => `removes the audio of ${calls}`);
  fillTable(byId('preview-calls-body'), preview.calls.calls.map(previewRow), 'No call is due.');
  fillTable(byId('preview-audio-body'), preview.audio.calls.map(previewRow), 'No audio is due.');
}

for (const radio of placeForm.querySelectorAll('input[name="scope"]')) radio.addEventListener('change', showScope);

placeForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = byId('place-message');
  setFieldError(targetInput, '');
  setFieldError(reasonInput, '');
  const scope = selectedScope();
  const field = scope === 'user' ? 'userId' : 'callId';
  await whileBusy(placeForm, async () => {
    try {
      await api('POST', '/legal-holds', { scope, [field]: targetInput.value.trim(), reason: reasonInput.value });
      showMessage(message, scope === 'user' ? 'The user is on hold: none of their calls can be deleted.' : 'The call is on hold: it cannot be deleted.', 'success');
      targetInput.value = '';
      reasonInput.value = '';
      await Promise.all([loadHolds(), loadPreview()]);
    } catch (error) {
      if (error.status === 401) return;
      const marked = applyFieldProblems(error, { [field]: targetInput, reason: reasonInput });
      showMessage(message, `Not placed: ${errorText(error)}`, 'error');
      marked[0]?.focus();
    }
  });
});

byId('holds-refresh').addEventListener('click', async () => {
  try {
    await loadHolds();
    showMessage(byId('holds-message'), '');
  } catch (error) {
    if (error.status !== 401) showMessage(byId('holds-message'), `Could not load the holds: ${error.message}`, 'error');
  }
});

byId('preview-refresh').addEventListener('click', async () => {
  try {
    await loadPreview();
    showMessage(byId('preview-message'), '');
  } catch (error) {
    if (error.status !== 401) showMessage(byId('preview-message'), `Could not load the preview: ${error.message}`, 'error');
  }
});

try {
  await requireSession();
  await Promise.all([loadHolds(), loadPreview()]);
} catch (error) {
  if (error.status !== 401) showMessage(byId('retention-message'), `Could not load the page: ${error.message}`, 'error');
}

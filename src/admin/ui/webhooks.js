// Webhooks: the endpoints and whether the transcript goes with them, the signing secret
// (generate/rotate, shown once), and the recent deliveries with a Resend button each.
// Shows only what the API returns: ids, statuses and URLs, never a payload.
import { api, byId, el, errorText, fillTable, formatNumber, requireSession, showMessage, timeElement } from './admin.js';

const deliveryStates = { pending: 'warn', delivered: 'ok', failed: 'bad' };
const sources = { env: ['info', 'env'], stored: ['ok', 'stored'], none: ['neutral', 'not set'] };

function renderOverview(overview) {
  const endpoints = overview.endpoints ?? [];
  byId('endpoints-state').textContent = endpoints.length === 0
    ? 'Webhooks are off: no endpoint is configured (WEBHOOK_URLS).'
    : endpoints.length === 1 ? 'This endpoint receives every event:' : `These ${endpoints.length} endpoints receive every event:`;
  byId('endpoints-list').replaceChildren(...endpoints.map((url) => el('li', {}, el('code', { class: 'break', text: url }))));
  byId('transcript-state').textContent = overview.includeTranscript
    ? 'call.completed carries the transcript text (WEBHOOK_INCLUDE_TRANSCRIPT is on).'
    : 'call.completed carries ids and statuses only; the transcript text is not sent.';
  const counts = overview.deliveries ?? {};
  byId('delivery-counts').replaceChildren(...[['pending', 'Pending'], ['delivered', 'Delivered'], ['failed', 'Failed']].map(([key, label]) =>
    el('div', {}, el('dt', { text: label }), el('dd', { text: formatNumber(counts[key] ?? 0) }))));
  renderSecret(overview.secret ?? { configured: false, source: 'none' });
}

function renderSecret(secret) {
  const [kind, text] = sources[secret.source] ?? sources.none;
  byId('secret-source').replaceChildren(el('span', { class: `badge badge-${kind}`, 'data-source': secret.source }, el('span', { class: 'visually-hidden', text: 'Source: ' }), text));
  byId('secret-state').textContent = secret.source === 'env'
    ? 'Set by the environment (WEBHOOK_SECRET): change it there.'
    : secret.configured ? 'A secret is in force; generating a new one replaces it.' : 'No secret yet: webhooks wait until one is generated.';
  const generate = byId('secret-generate');
  generate.disabled = secret.source === 'env';
  generate.textContent = secret.configured ? 'Rotate signing secret' : 'Generate signing secret';
}

function deliveryRow(delivery) {
  const resend = el('button', { type: 'button', class: 'secondary', text: 'Resend', 'aria-label': `Resend delivery ${delivery.seq} (${delivery.eventType})` });
  resend.addEventListener('click', () => void resendDelivery(delivery, resend));
  const answer = delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : '–';
  return el('tr', { class: delivery.state === 'failed' ? 'row-bad' : undefined },
    el('td', {}, timeElement(delivery.createdAt)),
    el('td', {}, el('code', { text: delivery.eventType })),
    el('td', { class: 'break', text: delivery.url }),
    el('td', {}, el('span', { class: `badge badge-${deliveryStates[delivery.state] ?? 'neutral'}`, text: delivery.state })),
    el('td', { class: 'num', text: formatNumber(delivery.attempts) }),
    el('td', { class: 'break' }, answer, delivery.lastError && delivery.lastError !== answer ? el('div', { class: 'small muted', text: delivery.lastError }) : null),
    el('td', {}, timeElement(delivery.state === 'delivered' ? delivery.deliveredAt : delivery.nextAttemptAt)),
    el('td', {}, el('code', { class: 'break', text: delivery.messageId })),
    el('td', {}, resend));
}

async function resendDelivery(delivery, button) {
  const message = byId('deliveries-message');
  button.disabled = true;
  try {
    await api('POST', `/webhooks/deliveries/${delivery.seq}/resend`);
    showMessage(message, `Delivery ${delivery.seq} (${delivery.eventType}) is queued to be sent again now.`, 'success');
    await load();
  } catch (error) {
    if (error.status !== 401) showMessage(message, `Not resent: ${errorText(error)}`, 'error');
    button.disabled = false;
  }
}

async function load() {
  const [overview, { deliveries }] = await Promise.all([api('GET', '/webhooks'), api('GET', '/webhooks/deliveries?limit=100')]);
  renderOverview(overview);
  fillTable(byId('deliveries-body'), (deliveries ?? []).map(deliveryRow), 'No webhook has been sent yet.');
}

byId('deliveries-refresh').addEventListener('click', async () => {
  try {
    await load();
    showMessage(byId('deliveries-message'), '');
  } catch (error) {
    if (error.status !== 401) showMessage(byId('deliveries-message'), `Could not load the deliveries: ${error.message}`, 'error');
  }
});

byId('secret-generate').addEventListener('click', async () => {
  const message = byId('secret-message');
  const generate = byId('secret-generate');
  if (generate.textContent.startsWith('Rotate') && !window.confirm('Rotate the signing secret? Receivers verifying with the old one refuse the next webhooks until they have the new one.')) return;
  generate.disabled = true;
  try {
    const { secret } = await api('POST', '/webhooks/secret');
    byId('secret-value').value = secret;
    byId('secret-new').hidden = false;
    showMessage(message, 'A new signing secret is in force. Copy it now and give it to every receiver.', 'warning');
    byId('secret-value').focus();
    byId('secret-value').select();
    renderSecret({ configured: true, source: 'stored' });
  } catch (error) {
    if (error.status !== 401) showMessage(message, errorText(error), 'error');
    generate.disabled = false;
  }
});

try {
  await requireSession();
  await load();
} catch (error) {
  if (error.status !== 401) showMessage(byId('webhooks-message'), `Could not load the webhooks: ${error.message}`, 'error');
}

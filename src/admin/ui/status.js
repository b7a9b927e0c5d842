// Status: health, readiness checks, queue depth, last 24 h, stage timings and recent failures,
// refreshed every 10 s (can be paused). Shows only what the API returns: no call content.
import { api, byId, detailList, el, fillTable, formatMs, formatNumber, requireSession, showMessage, statusBadge, timeElement } from './admin.js';

const refreshMs = 10_000;
const queueStatuses = [
  ['QUEUED', 'Queued'],
  ['TRANSCRIBING', 'Transcribing'],
  ['ANALYZING', 'Analysing'],
  ['COMPLETED', 'Completed'],
  ['FAILED', 'Failed'],
];

const nodeStates = { running: 'UP', lost: 'LOST', stopped: 'STOPPED' };

/** A node's model files: "all 3 verify", or the ones that do not, by slot. */
function modelsCell(models) {
  if (!models) return el('span', { class: 'muted', text: 'processes no calls' });
  const present = models.filter((model) => model.check !== 'missing');
  const problems = present.filter((model) => model.check !== 'ok' && model.check !== 'not_pinned');
  const missing = models.filter((model) => model.check === 'missing');
  const parts = [`${present.length - problems.length} of ${present.length} verify`];
  if (problems.length > 0) parts.push(problems.map((model) => `${model.slot}: ${model.check.replaceAll('_', ' ')}`).join(', '));
  if (missing.length > 0) parts.push(`not installed: ${missing.map((model) => model.slot).join(', ')}`);
  return el('span', { class: problems.length > 0 ? 'text-bad' : undefined, text: parts.join('; ') });
}

const message = byId('status-message');
const autoRefresh = byId('auto-refresh');
let timer = null;
let loading = false;

/**
 * Calls do not start while a model they need is missing (readiness's workerPool check names
 * them): say so above everything else, with what to do and a link to the Models page.
 */
function renderWaiting(status) {
  const region = byId('waiting-message');
  const waiting = status.readiness?.checks?.workerPool?.detail?.waitingForModels ?? [];
  if (waiting.length === 0) {
    showMessage(region, '');
    return;
  }
  const queued = status.queue?.QUEUED ?? 0;
  const names = waiting.map((model) => `the ${model.label} (${model.expectedAt})`).join(' and ');
  const who = queued === 0 ? 'Calls will wait' : `${formatNumber(queued)} queued call${queued === 1 ? ' waits' : 's wait'}`;
  const howTo = waiting.length === 1
    ? waiting[0].howToInstall.replaceAll('`', '')
    : 'download them on the Models page or with callscope models fetch, import them with callscope models import DIR, or copy each file to the path shown';
  showMessage(region, `${who}: ${names} ${waiting.length === 1 ? 'is' : 'are'} not installed. To install: ${howTo}. Calls start by themselves once the models are in place.`, 'warning');
  region.append(' ', el('a', { href: '/admin/models', text: 'Open Models' }));
}

function render(status) {
  renderWaiting(status);
  byId('health-status').replaceChildren(statusBadge(status.health?.status, { large: true }));
  const checks = Object.entries(status.readiness?.checks ?? {});
  const up = checks.filter(([, check]) => String(check.status).toUpperCase() === 'UP').length;
  byId('readiness-status').replaceChildren(
    statusBadge(status.readiness?.status, { large: true }),
    ' ',
    el('span', { class: 'small muted', text: `${up} of ${checks.length} checks up` }),
  );

  byId('last24-completed').textContent = formatNumber(status.processedLast24h?.completed);
  byId('last24-failed').textContent = formatNumber(status.processedLast24h?.failed);

  const queue = status.queue ?? {};
  const known = new Set(queueStatuses.map(([key]) => key));
  const entries = [...queueStatuses, ...Object.keys(queue).filter((key) => !known.has(key)).map((key) => [key, key])];
  byId('queue-stats').replaceChildren(...entries.map(([key, label]) =>
    el('div', {}, el('dt', { text: label }), el('dd', { text: formatNumber(queue[key] ?? 0) }))));

  fillTable(byId('nodes-body'), (status.nodes ?? []).map((node) =>
    el('tr', { class: node.state === 'lost' ? 'row-bad' : node.state === 'stopped' ? 'row-muted' : undefined },
      el('th', { scope: 'row', text: node.host }),
      el('td', { text: node.role === 'serve' ? (node.processes ? 'API + worker' : 'API') : 'worker' }),
      el('td', {}, statusBadge(nodeStates[node.state] ?? node.state)),
      el('td', {}, timeElement(node.lastHeartbeatAt)),
      el('td', { class: 'num', text: formatNumber(node.callsInFlight) }),
      el('td', { class: 'break' }, modelsCell(node.models)),
      el('td', { text: node.version }),
      el('td', {}, el('code', { class: 'break', text: node.id })))), 'No node has reported yet.');

  fillTable(byId('checks-body'), checks.map(([name, check]) => {
    const bad = String(check.status).toUpperCase() !== 'UP';
    return el('tr', { class: bad ? 'row-bad' : undefined },
      el('th', { scope: 'row', text: name }),
      el('td', {}, statusBadge(check.status)),
      el('td', { class: 'break col-wide' }, detailList(check.detail)));
  }), 'No readiness checks reported.');

  fillTable(byId('stages-body'), (status.stageTimings ?? []).map((stage) =>
    el('tr', { class: stage.failures > 0 ? 'row-warn' : undefined },
      el('th', { scope: 'row', text: stage.stage }),
      el('td', { class: 'num', text: formatNumber(stage.runs) }),
      el('td', { class: 'num', text: formatNumber(stage.failures) }),
      el('td', { class: 'num', text: formatMs(stage.p50Ms) }),
      el('td', { class: 'num', text: formatMs(stage.p95Ms) }))), 'No stage has run yet.');

  fillTable(byId('failures-body'), (status.recentFailures ?? []).map((failure) =>
    el('tr', { class: 'row-bad' },
      el('td', {}, el('code', { class: 'break', text: failure.callId })),
      el('td', {}, timeElement(failure.failedAt)),
      el('td', { class: 'break', text: failure.errorReason ?? '–' }))), 'No failed calls.');
}

async function load() {
  if (loading) return;
  loading = true;
  try {
    render(await api('GET', '/status'));
    byId('last-updated').replaceChildren(timeElement(new Date().toISOString()));
    if (message.classList.contains('error')) showMessage(message, '');
  } catch (error) {
    if (error.status !== 401) showMessage(message, `Could not load the status: ${error.message}`, 'error');
  } finally {
    loading = false;
  }
}

function schedule() {
  clearInterval(timer);
  timer = autoRefresh.checked ? setInterval(() => { if (!document.hidden) void load(); }, refreshMs) : null;
}

autoRefresh.addEventListener('change', schedule);
byId('refresh-now').addEventListener('click', () => void load());
document.addEventListener('visibilitychange', () => { if (!document.hidden && autoRefresh.checked) void load(); });

try {
  await requireSession();
  await load();
  schedule();
} catch (error) {
  if (error.status !== 401) showMessage(message, error.message, 'error');
}

// The access audit trail: filters, the records newest first a page at a time (Older follows the
// server's `nextBefore`; Newer goes back through the pages seen), and the same filters as CSV.
import { api, byId, describeValue, el, errorText, fillTable, formatNumber, requireSession, showMessage, timeElement } from './admin.js';

const pageSize = 100;
const kinds = { user: 'info', admin: 'warn', system: 'neutral' };

/** The `before` of each page shown so far; the last is the page on screen (undefined: the newest). */
let pageStarts = [undefined];
let nextBefore = null;

/** The form's filters as query parameters (times as ISO instants from the browser's local time). */
function filterParams() {
  const params = new URLSearchParams();
  for (const name of ['callId', 'actorId', 'action']) {
    const value = byId('audit-filters').elements[name].value.trim();
    if (value) params.set(name, value);
  }
  for (const name of ['from', 'to']) {
    const value = byId('audit-filters').elements[name].value;
    if (value) params.set(name, new Date(value).toISOString());
  }
  return params;
}

function recordRow(record) {
  return el('tr', {},
    el('td', { class: 'num', text: String(record.seq) }),
    el('td', {}, timeElement(record.at)),
    el('td', {}, el('span', { class: `badge badge-${kinds[record.actorKind] ?? 'neutral'}`, text: record.actorKind }), ' ', el('code', { class: 'break', text: record.actorId })),
    el('td', {}, el('code', { text: record.action })),
    el('td', {}, record.callId ? el('code', { class: 'break', text: record.callId }) : '–'),
    el('td', { class: 'break', text: record.target ?? '–' }),
    el('td', { text: record.clientIp ?? '–' }),
    el('td', { class: 'break small', text: describeValue(record.detail) }));
}

async function showPage() {
  const params = filterParams();
  byId('audit-csv').href = `/admin/api/access-audit.csv${params.size > 0 ? `?${params}` : ''}`;
  params.set('limit', String(pageSize));
  const before = pageStarts.at(-1);
  if (before !== undefined) params.set('before', String(before));
  const page = await api('GET', `/access-audit?${params}`);
  nextBefore = page.nextBefore;
  fillTable(byId('records-body'), page.records.map(recordRow), 'No record matches these filters.');
  byId('page-newer').disabled = pageStarts.length <= 1;
  byId('page-older').disabled = nextBefore === null;
  byId('page-state').textContent = page.records.length === 0 ? ''
    : `Page ${pageStarts.length}: records ${formatNumber(page.records.at(-1).seq)}–${formatNumber(page.records[0].seq)}`;
}

async function reload(message = byId('records-message')) {
  try {
    await showPage();
    showMessage(message, '');
  } catch (error) {
    if (error.status !== 401) showMessage(message, `Could not load the audit trail: ${errorText(error)}`, 'error');
  }
}

byId('audit-filters').addEventListener('submit', (event) => {
  event.preventDefault();
  pageStarts = [undefined];
  void reload();
});
byId('audit-filters').addEventListener('reset', () => {
  // After the browser has cleared the fields.
  setTimeout(() => {
    pageStarts = [undefined];
    void reload();
  });
});
byId('audit-refresh').addEventListener('click', () => void reload());
byId('page-older').addEventListener('click', () => {
  if (nextBefore === null) return;
  pageStarts.push(nextBefore);
  void reload();
});
byId('page-newer').addEventListener('click', () => {
  if (pageStarts.length <= 1) return;
  pageStarts.pop();
  void reload();
});

try {
  await requireSession();
  await showPage();
} catch (error) {
  if (error.status !== 401) showMessage(byId('audit-message'), `Could not load the audit trail: ${errorText(error)}`, 'error');
}

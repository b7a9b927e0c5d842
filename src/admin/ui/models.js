// Models: one row per slot with its file, size, checksum and check result; downloading the
// recommended models with their progress; import from a folder.
import { api, applyFieldProblems, byId, describeValue, el, errorText, fillTable, formatBytes, requireSession, setFieldError, showMessage, whileBusy } from './admin.js';

const slotNames = {
  SEGMENTATION_MODEL: 'Speaker segmentation',
  WHISPER_MODEL: 'Speech recognition',
  VAD_MODEL: 'Voice activity detection',
  EMBEDDING_MODEL: 'Speaker embeddings',
  LLM_MODEL: 'Language model (analysis)',
};

/** Check value → badge text and colour. `missing` is red for a required slot, amber otherwise. */
function checkBadge(check, required) {
  const looks = {
    ok: ['OK', 'ok'],
    missing: ['Missing', required ? 'bad' : 'warn'],
    checksum_mismatch: ['Checksum mismatch', 'bad'],
    not_in_manifest: ['Not in manifest', 'info'],
    not_pinned: ['Not pinned', 'warn'],
  }[check] ?? [String(check ?? 'unknown'), 'neutral'];
  const symbol = looks[1] === 'ok' ? '✓ ' : looks[1] === 'bad' ? '✗ ' : looks[1] === 'warn' ? '! ' : '';
  return el('span', { class: `badge badge-${looks[1]}`, 'data-check': check },
    el('span', { 'aria-hidden': 'true', text: symbol }), looks[0]);
}

function hashCell(sha256, label = 'SHA-256') {
  if (!sha256) return el('span', { class: 'muted', text: '–' });
  return el('span', {},
    el('code', { title: sha256, 'aria-hidden': 'true', text: `${sha256.slice(0, 12)}…` }),
    el('span', { class: 'visually-hidden', text: `${label} ${sha256}` }));
}

function rowClass(slot) {
  if (slot.check === 'checksum_mismatch' || (slot.check === 'missing' && slot.required)) return 'row-bad';
  if (slot.check !== 'ok') return 'row-warn';
  return undefined;
}

function render(slots) {
  fillTable(byId('models-body'), slots.map((slot) => {
    const entry = slot.manifestEntry;
    const manifestNote = entry
      ? el('span', { class: 'small muted' }, `Manifest: ${entry.name}`, entry.licence ? ` · ${entry.licence}` : '', entry.development ? ' · development model' : '')
      : null;
    const expected = slot.check === 'checksum_mismatch' && entry?.sha256
      ? el('div', { class: 'small' }, 'Expected ', hashCell(entry.sha256, 'expected SHA-256'))
      : null;
    return el('tr', { class: rowClass(slot), 'data-slot': slot.slot, 'data-config-key': slot.configKey },
      el('th', { scope: 'row' },
        el('div', { text: slotNames[slot.configKey] ?? slot.slot }),
        el('code', { class: 'small muted', text: slot.configKey }), ' ',
        el('span', { class: `badge ${slot.required ? 'badge-info' : 'badge-neutral'}`, text: slot.required ? 'required' : 'optional' })),
      el('td', { class: 'break col-file' },
        el('div', { text: slot.fileName ?? '–' }),
        el('span', { class: 'small muted', title: 'Configured path', text: slot.configuredPath ?? '' })),
      el('td', { class: 'num', title: typeof slot.sizeBytes === 'number' ? `${slot.sizeBytes} bytes` : undefined, text: slot.present ? formatBytes(slot.sizeBytes) : '–' }),
      el('td', {}, hashCell(slot.sha256), expected),
      el('td', {}, checkBadge(slot.check, slot.required)),
      el('td', { class: 'break col-wide' }, el('div', { text: slot.message ?? '' }), manifestNote));
  }), 'No model slots reported.');

  const problems = slots.filter((slot) => slot.check === 'checksum_mismatch' || (slot.check === 'missing' && slot.required));
  const warnings = slots.filter((slot) => slot.check !== 'ok' && !problems.includes(slot));
  const summary = byId('models-summary');
  if (problems.length > 0) {
    const words = problems.map((slot) => `${slotNames[slot.configKey] ?? slot.slot}: ${slot.check === 'missing' ? 'missing' : 'checksum mismatch'}`);
    showMessage(summary, `${problems.length} model problem${problems.length === 1 ? '' : 's'}: ${words.join('; ')}.`, 'error');
  } else if (warnings.length > 0) {
    showMessage(summary, `Required models are in place; ${warnings.length} slot${warnings.length === 1 ? ' needs' : 's need'} attention.`, 'warning');
  } else {
    showMessage(summary, 'All model files are in place and match the manifest.', 'success');
  }
}

async function load() {
  try {
    const { slots } = await api('GET', '/models');
    render(slots ?? []);
  } catch (error) {
    if (error.status !== 401) showMessage(byId('models-message'), `Could not load the models: ${error.message}`, 'error');
  }
}

/** Import outcome → badge colour: installed or already there is fine; damaged or failed is not. */
const outcomeKinds = { imported: 'ok', unchanged: 'ok', kept: 'ok', skipped: 'neutral', refused: 'bad', failed: 'bad' };

function renderImportResults(results) {
  const holder = byId('import-results');
  holder.hidden = false;
  fillTable(byId('import-results-body'), results.map((result) => {
    const outcome = String(result.outcome ?? result.status ?? '–');
    const kind = outcomeKinds[outcome] ?? 'warn';
    return el('tr', { class: kind === 'bad' ? 'row-bad' : result.warning ? 'row-warn' : undefined, 'data-outcome': outcome },
      el('td', { text: slotNames[result.configKey] ?? result.slot ?? '–' }),
      el('td', { class: 'break' },
        el('div', { text: result.fileName ?? result.file ?? '–' }),
        result.entry ? el('span', { class: 'small muted', text: `Recognised as ${result.entry}` }) : null),
      el('td', {}, el('span', { class: `badge badge-${kind}`, text: outcome })),
      el('td', { class: 'break' },
        el('div', { text: result.message ?? describeValue(result.detail) }),
        result.warning ? el('div', { class: 'text-bad', text: result.warning }) : null));
  }), 'No model files found in that folder.');
}

/** Download item state → badge colour. */
const downloadKinds = { waiting: 'neutral', downloading: 'info', downloaded: 'ok', unchanged: 'ok', kept: 'ok', failed: 'bad' };
const downloadPollMs = 1000;
let downloadTimer = null;

function renderDownload(download) {
  const message = byId('fetch-message');
  const button = byId('fetch-start');
  const running = download.state === 'running';
  button.disabled = running;
  if (download.state === 'idle') return;
  byId('fetch-progress').hidden = download.items.length === 0;
  fillTable(byId('fetch-body'), download.items.map((item) => {
    const kind = downloadKinds[item.state] ?? 'warn';
    const total = item.totalBytes;
    const progress = total
      ? el('progress', { max: String(total), value: String(item.receivedBytes), 'aria-label': `${item.entry}: ${formatBytes(item.receivedBytes)} of ${formatBytes(total)}` })
      : null;
    return el('tr', { class: kind === 'bad' ? 'row-bad' : item.warning ? 'row-warn' : undefined, 'data-slot': item.slot, 'data-state': item.state },
      el('td', { text: item.slot }),
      el('td', { class: 'break', text: item.entry }),
      el('td', {}, progress, el('div', { class: 'small muted', text: total ? `${formatBytes(item.receivedBytes)} of ${formatBytes(total)}` : formatBytes(item.receivedBytes) })),
      el('td', { class: 'break' },
        el('span', { class: `badge badge-${kind}`, text: item.state }),
        item.message ? el('div', { class: 'small', text: item.message }) : null,
        item.warning ? el('div', { class: 'text-bad', text: item.warning }) : null));
  }), 'Nothing to download.');
  if (running) {
    showMessage(message, `Downloading${download.trigger === 'start' ? ' (started with the service)' : ''}…`, 'info');
  } else if (download.state === 'offline') {
    showMessage(message, `${download.unreachable} cannot be reached from the box, so nothing was downloaded. Download the files listed in models/manifest.json on a connected machine and import them below.`, 'error');
  } else {
    const failed = download.items.filter((item) => item.state === 'failed').length;
    const downloaded = download.items.filter((item) => item.state === 'downloaded').length;
    showMessage(message, failed ? `Download finished: ${downloaded} installed, ${failed} failed (see below); downloading again resumes.` : `Download finished: ${downloaded} model${downloaded === 1 ? '' : 's'} installed.`, failed ? 'warning' : 'success');
  }
}

/** Shows the latest download and keeps polling while one runs; reloads the slots when it ends. */
async function watchDownload() {
  clearTimeout(downloadTimer);
  try {
    const download = await api('GET', '/models/fetch');
    renderDownload(download);
    if (download.state === 'running') downloadTimer = setTimeout(() => void watchDownload(), downloadPollMs);
    else if (download.state !== 'idle') await load();
  } catch (error) {
    if (error.status !== 401) showMessage(byId('fetch-message'), `Could not read the download's progress: ${error.message}`, 'error');
  }
}

byId('fetch-start').addEventListener('click', async () => {
  try {
    renderDownload(await api('POST', '/models/fetch'));
    await watchDownload();
  } catch (error) {
    if (error.status !== 401) showMessage(byId('fetch-message'), errorText(error), 'error');
  }
});

const importForm = byId('import-form');
const directory = byId('import-directory');
importForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = byId('import-message');
  setFieldError(directory, '');
  showMessage(message, '');
  if (!directory.value.trim()) {
    setFieldError(directory, 'Enter the folder to import from.');
    directory.focus();
    return;
  }
  await whileBusy(importForm, async () => {
    showMessage(message, 'Importing… large models take a while to check.', 'info');
    try {
      const { results } = await api('POST', '/models/import', { directory: directory.value.trim() });
      const list = results ?? [];
      renderImportResults(list);
      const count = (outcome) => list.filter((result) => result.outcome === outcome).length;
      const bad = count('refused') + count('failed');
      const summary = `Import finished: ${list.length} file${list.length === 1 ? '' : 's'} examined, ${count('imported')} imported${bad ? `, ${bad} refused or failed` : ''}.`;
      showMessage(message, summary, bad ? 'warning' : 'success');
      await load();
    } catch (error) {
      if (error.status === 401) return;
      if (applyFieldProblems(error, { directory }).length === 0 && error.status === 400) setFieldError(directory, error.message);
      showMessage(message, errorText(error), 'error');
      directory.focus();
    }
  });
});

try {
  await requireSession();
  await load();
  await watchDownload();
} catch (error) {
  if (error.status !== 401) showMessage(byId('models-message'), error.message, 'error');
}

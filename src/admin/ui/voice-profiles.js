// Voice profiles: which users have one (name, e-mail, model, consent version and whether it is
// current, sample length, times) and a button that deletes them all after a confirmation.
// The API never returns the embedding, so the page cannot show it.
import { api, byId, el, errorText, fillTable, formatSeconds, requireSession, showMessage, timeElement } from './admin.js';

/** The word the API wants in `confirm` (and the admin types in the prompt). */
const confirmationWord = 'DELETE';

function profileRow(profile) {
  const consent = profile.consentCurrent
    ? el('span', { class: 'badge badge-ok', text: 'current' })
    : el('span', { class: 'badge badge-warn', text: 'outdated: not used' });
  return el('tr', { class: profile.consentCurrent ? undefined : 'row-warn', 'data-user-id': profile.userId },
    el('td', {}, profile.displayName ?? el('span', { class: 'muted', text: 'no name' }), el('div', { class: 'small muted' }, el('code', { class: 'break', text: profile.userId }))),
    el('td', { class: 'break', text: profile.email ?? '–' }),
    el('td', {}, el('code', { text: profile.consentVersion }), ' ', consent),
    el('td', {}, el('code', { class: 'break', text: profile.embeddingModel })),
    el('td', { class: 'num', text: formatSeconds(profile.sampleDurationSeconds) }),
    el('td', {}, timeElement(profile.createdAt)),
    el('td', {}, timeElement(profile.updatedAt)));
}

function describe(overview) {
  const count = overview.profiles.length;
  const outdated = overview.profiles.filter((profile) => !profile.consentCurrent).length;
  const stored = count === 0 ? 'No user has a voice profile.' : count === 1 ? '1 user has a voice profile.' : `${count} users have a voice profile.`;
  const feature = overview.enabled ? '' : ' Voice profiles are switched off: none is used for matching.';
  const stale = outdated > 0 ? ` ${outdated} of them ${outdated === 1 ? 'was' : 'were'} recorded under an earlier consent version than the current ${overview.consentVersion}.` : '';
  return stored + feature + stale;
}

async function load() {
  const overview = await api('GET', '/voice-profiles');
  byId('profiles-state').textContent = describe(overview);
  fillTable(byId('profiles-body'), overview.profiles.map(profileRow), 'No voice profiles are stored.');
  byId('delete-all').disabled = overview.profiles.length === 0;
}

byId('profiles-refresh').addEventListener('click', async () => {
  try {
    await load();
    showMessage(byId('voice-message'), '');
  } catch (error) {
    if (error.status !== 401) showMessage(byId('voice-message'), `Could not load the voice profiles: ${error.message}`, 'error');
  }
});

byId('delete-all').addEventListener('click', async () => {
  const message = byId('delete-message');
  const button = byId('delete-all');
  const typed = window.prompt(`Delete every user's voice profile? This cannot be undone. Type ${confirmationWord} to confirm.`);
  if (typed === null) return;
  if (typed.trim() !== confirmationWord) {
    showMessage(message, `Nothing was deleted: type ${confirmationWord} to confirm.`, 'warning');
    return;
  }
  button.disabled = true;
  try {
    const { deleted } = await api('POST', '/voice-profiles/delete-all', { confirm: confirmationWord });
    showMessage(message, deleted === 1 ? '1 voice profile was deleted.' : `${deleted} voice profiles were deleted.`, 'success');
    await load();
  } catch (error) {
    if (error.status !== 401) showMessage(message, `Not deleted: ${errorText(error)}`, 'error');
    button.disabled = false;
  }
});

try {
  await requireSession();
  await load();
} catch (error) {
  if (error.status !== 401) showMessage(byId('voice-message'), `Could not load the voice profiles: ${error.message}`, 'error');
}

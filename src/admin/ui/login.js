// Sign-in with the admin password; a lockout (429 admin_locked) disables the form for its wait.
import { api, byId, formatSeconds, nextPage, setFieldError, showMessage, whileBusy } from './admin.js';

const form = byId('login-form');
const message = byId('login-message');
const password = byId('login-password');
const submit = byId('login-submit');
const countdown = byId('lockout-countdown');

let lockTimer = null;

async function start() {
  try {
    const setup = await api('GET', '/setup', undefined, { redirectOn401: false });
    if (setup.setupRequired) {
      window.location.replace('/admin/setup');
      return;
    }
    await api('GET', '/session', undefined, { redirectOn401: false });
    window.location.replace(nextPage());
    return;
  } catch (error) {
    if (error.status !== 401) showMessage(message, error.message, 'error');
  }
  password.focus();
}

function lockOut(seconds) {
  const until = Date.now() + seconds * 1000;
  showMessage(message, `Too many failed sign-in attempts. Sign-in is locked for ${formatSeconds(seconds)}; try again after that.`, 'error');
  password.disabled = true;
  submit.disabled = true;
  clearInterval(lockTimer);
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) {
      clearInterval(lockTimer);
      countdown.textContent = '';
      password.disabled = false;
      submit.disabled = false;
      showMessage(message, 'You can try to sign in again.', 'info');
      password.focus();
      return;
    }
    countdown.textContent = `Try again in ${formatSeconds(left)}`;
  };
  tick();
  lockTimer = setInterval(tick, 1000);
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  setFieldError(password, '');
  showMessage(message, '');
  if (!password.value) {
    setFieldError(password, 'Enter the admin password.');
    showMessage(message, 'Enter the admin password.', 'error');
    password.focus();
    return;
  }
  let locked = 0;
  await whileBusy(form, async () => {
    try {
      await api('POST', '/session', { password: password.value }, { redirectOn401: false });
      showMessage(message, 'Signed in. Opening…', 'success');
      window.location.replace(nextPage());
    } catch (error) {
      password.value = '';
      if (error.code === 'admin_locked' || error.status === 429) {
        locked = Number(error.details.retryAfterSeconds) || 60;
        return;
      }
      if (error.status === 401) {
        setFieldError(password, 'Wrong password.');
        const left = Number(error.details.attemptsRemaining);
        const extra = Number.isFinite(left) ? ` ${left} attempt${left === 1 ? '' : 's'} left before sign-in is locked.` : '';
        showMessage(message, `The password is not correct.${extra}`, 'error');
        return;
      }
      showMessage(message, error.message, 'error');
    }
  });
  // After whileBusy re-enabled the form: a lockout disables it again for the wait.
  if (locked > 0) lockOut(locked);
  else password.focus();
});

void start();

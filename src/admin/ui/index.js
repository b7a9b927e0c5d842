// /admin: sends the browser to setup (first run), status (signed in) or sign-in.
import { api, byId } from './admin.js';

async function route() {
  try {
    const setup = await api('GET', '/setup', undefined, { redirectOn401: false });
    if (setup.setupRequired) {
      // Keep a setup token the link may carry; setup.js removes it from the address bar.
      window.location.replace(`/admin/setup${window.location.search}`);
      return;
    }
    try {
      await api('GET', '/session', undefined, { redirectOn401: false });
      window.location.replace('/admin/status');
    } catch (error) {
      if (error.status === 401) window.location.replace('/admin/login');
      else throw error;
    }
  } catch (error) {
    byId('index-message').textContent = `The admin pages could not start: ${error.message}`;
  }
}

void route();

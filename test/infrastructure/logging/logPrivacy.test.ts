import { afterAll, beforeAll, expect, test } from 'vitest';
import { wavFile } from '../../helpers/audioFixtures.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { uploadForm } from '../../helpers/uploads.js';

const apiKey = 'log-privacy-api-key-0123456789';
let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp({ API_KEY: apiKey }); });
afterAll(async () => { await testApp.close(); });

test('an upload with a phone number logs only its masked form, and no credentials', async () => {
  const response = await testApp.as('alice')('/api/calls/analyze', {
    method: 'POST',
    body: uploadForm(wavFile(1), 'call.wav', { metadata: { phoneNumber: '+15551234567', contactName: 'Sheila', direction: 'OUTGOING' } }),
  });
  expect(response.status).toBe(202);
  // Read the detail back, so a request that handles the number on the way out is logged too.
  const { callId } = (await response.json()) as { callId: string };
  expect((await testApp.as('alice')(`/api/calls/${callId}`)).status).toBe(200);

  const logText = testApp.logLines.map((line) => JSON.stringify(line)).join('\n');
  expect(logText).not.toContain('5551234567');
  expect(logText).toContain('+*********67');
  expect(logText).not.toContain(apiKey);
  expect(logText).not.toContain('x-local-user-id');
});

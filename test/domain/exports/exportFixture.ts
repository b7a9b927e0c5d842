import type { CallExport } from '../../../src/domain/exports/CallExport.js';

/** A small call in display form: two speakers, three segments, the last one past the hour. */
export function callExportFixture(overrides: Partial<CallExport> = {}): CallExport {
  return {
    title: 'Dentist appointment',
    recorded: { date: '2026-11-20', time: '14:05', timeZone: 'Europe/Berlin' },
    direction: 'OUTGOING',
    contactName: 'Dr. Weiss',
    durationSeconds: 3725,
    participants: ['Diane', 'Dr. Weiss'],
    summary: { bullets: ['Checkup moved to Friday', 'Bring the X-rays'], paragraphs: ['Diane moved her checkup.'] },
    actionItems: [
      { title: 'Bring the X-rays', owner: 'Diane', dueDate: '2026-11-27', status: 'PENDING' },
      { title: 'Send the reminder', owner: null, dueDate: null, status: 'COMPLETED' },
    ],
    segments: [
      { id: 'seg_0001', startSeconds: 1, endSeconds: 4.5, speaker: 'Diane', text: 'Hi, I need to move my checkup.' },
      { id: 'seg_0002', startSeconds: 62.25, endSeconds: 65.0004, speaker: 'Dr. Weiss', text: 'Friday works.' },
      { id: 'seg_0003', startSeconds: 3723.9996, endSeconds: 3725, speaker: 'Diane', text: 'Thanks, bye.' },
    ],
    ...overrides,
  };
}

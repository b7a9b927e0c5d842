import { describe, expect, test } from 'vitest';
import { renderDocx } from '../../../src/domain/exports/renderDocx.js';
import { docxDocument } from '../../helpers/docxText.js';
import { callExportFixture } from './exportFixture.js';

describe('renderDocx', () => {
  test('writes a Word document with the title, details, summary bullets, action items and the timestamped transcript', async () => {
    const bytes = await renderDocx(callExportFixture());
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const { xml, text } = await docxDocument(bytes);
    const lines = text.split('\n');
    expect(lines).toEqual(expect.arrayContaining([
      'Dentist appointment',
      'Date: 2026-11-20 14:05 (Europe/Berlin)',
      'Direction: outgoing',
      'Contact: Dr. Weiss',
      'Duration: 01:02:05',
      'Participants: Diane, Dr. Weiss',
      'Summary', 'Checkup moved to Friday', 'Bring the X-rays',
      'Action items', 'Action item', 'Owner', 'Due', 'Status',
      '2026-11-27', 'Pending', 'Send the reminder', '—', 'Completed',
      'Transcript',
      '[00:00:01] Diane: Hi, I need to move my checkup.',
      '[00:01:02] Dr. Weiss: Friday works.',
      '[01:02:03] Diane: Thanks, bye.',
    ]));
    // The bullets are a list, the prose is not repeated under them, the items a table.
    expect(xml).toContain('<w:numPr>');
    expect(text).not.toContain('Diane moved her checkup.');
    expect(xml).toContain('<w:tbl>');
    expect(lines.indexOf('Summary')).toBeLessThan(lines.indexOf('Action items'));
    expect(lines.indexOf('Action items')).toBeLessThan(lines.indexOf('Transcript'));
  });

  test('shows the prose summary without bullets, and says when there are no items or segments', async () => {
    const { text } = await docxDocument(await renderDocx(callExportFixture({
      summary: { bullets: [], paragraphs: ['First paragraph.', 'Second & <last>.'] }, actionItems: [], segments: [], contactName: null,
    })));
    const lines = text.split('\n');
    expect(lines).toEqual(expect.arrayContaining(['First paragraph.', 'Second & <last>.', 'No action items.', 'The transcript is empty.']));
    expect(text).not.toContain('Contact:');
  });
});

import { expect, test } from 'vitest';
import { accessAuditCsvLine, csvCell } from '../../src/admin/audit/accessAuditCsv.js';

test('cells are quoted only when they hold a comma, quote or line break, quotes doubled', () => {
  expect(csvCell('plain')).toBe('plain');
  expect(csvCell(null)).toBe('');
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('two\nlines')).toBe('"two\nlines"');
});

test('a cell that a spreadsheet would run as a formula is neutralised', () => {
  expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  expect(csvCell('+1')).toBe("'+1");
  expect(csvCell('@cmd')).toBe("'@cmd");
});

test('a record as one CRLF-terminated line', () => {
  expect(accessAuditCsvLine({
    seq: 7, at: Date.parse('2026-01-02T03:04:05.000Z'), actorKind: 'user', actorId: 'u1', action: 'call.export', callId: 'c1', target: null,
    clientIp: '::1', detail: '{"format":"txt"}', previousHash: 'a'.repeat(64), hash: 'b'.repeat(64),
  })).toBe(`7,2026-01-02T03:04:05.000Z,user,u1,call.export,c1,,::1,"{""format"":""txt""}",${'a'.repeat(64)},${'b'.repeat(64)}\r\n`);
});

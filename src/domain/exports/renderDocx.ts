import {
  Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType,
} from 'docx';
import type { CallExport, ExportActionItem } from './CallExport.js';
import { formatClockTime } from './formatTimestamp.js';
import { recordedLine } from './renderTxt.js';

const timestampColour = '6B6B6B';
const actionItemColumns = ['Action item', 'Owner', 'Due', 'Status'] as const;
/** Widths of {@link actionItemColumns}, in percent of the text width. */
const actionItemColumnWidths = [52, 20, 14, 14] as const;
/** The text width of the `docx` library's default page (A4, 1-inch margins), in twips (1/1440 inch). */
const textWidthTwips = 11_906 - 2 * 1440;
const statusNames: Record<ExportActionItem['status'], string> = { PENDING: 'Pending', COMPLETED: 'Completed' };

/**
 * The Word document (Office Open XML, built with the `docx` library): the title, the call's
 * details (date, direction, contact, duration, participants), the summary, the action items
 * with owner, due date and status, and the transcript with timestamps and speaker names.
 */
export function renderDocx(call: CallExport): Promise<Buffer> {
  const document = new Document({
    creator: 'Callscope',
    lastModifiedBy: 'Callscope',
    title: call.title,
    description: 'Call transcript exported from Callscope',
    sections: [{
      children: [
        new Paragraph({ text: call.title, heading: HeadingLevel.TITLE }),
        ...detailLines(call).map(([label, value]) => new Paragraph({ children: [new TextRun({ text: `${label}: `, bold: true }), new TextRun(value)] })),
        heading('Summary'),
        ...summaryParagraphs(call),
        heading('Action items'),
        call.actionItems.length > 0 ? actionItemTable(call.actionItems) : new Paragraph('No action items.'),
        heading('Transcript'),
        ...(call.segments.length > 0
          ? call.segments.map((segment) => new Paragraph({
            children: [
              new TextRun({ text: `[${formatClockTime(segment.startSeconds)}] `, color: timestampColour }),
              new TextRun({ text: `${segment.speaker}: `, bold: true }),
              new TextRun(segment.text),
            ],
          }))
          : [new Paragraph('The transcript is empty.')]),
      ],
    }],
  });
  return Packer.toBuffer(document);
}

function detailLines(call: CallExport): [label: string, value: string][] {
  return [
    ['Date', recordedLine(call)],
    ['Direction', call.direction.toLowerCase()],
    ...(call.contactName ? [['Contact', call.contactName] as [string, string]] : []),
    ...(call.durationSeconds !== null ? [['Duration', formatClockTime(call.durationSeconds)] as [string, string]] : []),
    ['Participants', call.participants.length > 0 ? call.participants.join(', ') : 'unknown'],
  ];
}

function heading(text: string): Paragraph {
  return new Paragraph({ text, heading: HeadingLevel.HEADING_1 });
}

/** The bullets when the analysis has them (v2), else its prose (v1, or a v2 without bullets). */
function summaryParagraphs(call: CallExport): Paragraph[] {
  if (call.summary.bullets.length > 0) return call.summary.bullets.map((text) => new Paragraph({ text, bullet: { level: 0 } }));
  if (call.summary.paragraphs.length > 0) return call.summary.paragraphs.map((text) => new Paragraph(text));
  return [new Paragraph('No summary is available.')];
}

function actionItemTable(items: readonly ExportActionItem[]): Table {
  const row = (cells: readonly string[], bold = false) => new TableRow({
    tableHeader: bold,
    children: cells.map((text, index) => new TableCell({
      width: { size: actionItemColumnWidths[index] ?? 0, type: WidthType.PERCENTAGE },
      children: [new Paragraph({ children: [new TextRun({ text, bold })] })],
    })),
  });
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    // Readers that lay out by the grid (LibreOffice) need the columns in twips as well.
    columnWidths: actionItemColumnWidths.map((percent) => Math.round((textWidthTwips * percent) / 100)),
    rows: [
      row(actionItemColumns, true),
      ...items.map((item) => row([item.title, item.owner ?? '—', item.dueDate ?? '—', statusNames[item.status]])),
    ],
  });
}

import JSZip from 'jszip';

/** The main part of a DOCX file (`word/document.xml`), and its text with the XML tags removed. */
export async function docxDocument(bytes: Uint8Array): Promise<{ xml: string; text: string }> {
  const zip = await JSZip.loadAsync(bytes);
  const part = zip.file('word/document.xml');
  if (!part) throw new Error('not a DOCX: no word/document.xml');
  const xml = await part.async('string');
  // Runs of one paragraph join up; paragraphs and table cells end with a line break.
  const text = xml.replace(/<\/w:p>/g, '\n').replace(/<[^>]+>/g, '')
    .replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', '\'').replaceAll('&amp;', '&');
  return { xml, text };
}

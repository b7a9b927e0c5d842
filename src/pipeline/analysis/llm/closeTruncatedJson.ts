/**
 * JSON cut off mid-way (the model reached its token limit) made parseable, keeping only
 * complete values: the text is cut back to the last point where the root object's members
 * and the items of the lists open at that point are all complete, then the open lists and the
 * root are closed. A nested object is kept only once it is closed, so no half-written item or
 * sub-object survives: `{"a":1,"b":[{"x":1},{"y":` becomes `{"a":1,"b":[{"x":1}]}`.
 * Complete JSON comes back as it is (from its first `{`); undefined when there is no object.
 */
export function closeTruncatedJson(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  // The closers of the open containers, root first.
  const open: string[] = [];
  let inString = false;
  let escaped = false;
  let cut: { end: number; closing: string } | undefined;
  // A cut is safe when no object other than the root is open.
  const markCut = (end: number) => {
    if (open.slice(1).every((closer) => closer === ']')) cut = { end, closing: [...open].reverse().join('') };
  };
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      open.push(char === '{' ? '}' : ']');
      markCut(index + 1);
    } else if (char === '}' || char === ']') {
      open.pop();
      if (open.length === 0) return text.slice(start, index + 1);
      markCut(index + 1);
    } else if (char === ',') {
      markCut(index);
    }
  }
  return cut ? text.slice(start, cut.end) + cut.closing : undefined;
}

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fts5ColumnsOf, fts5PieceSeparator, tsvectorOf } from '../../../src/domain/search/engineSearchSyntax.js';
import { isSearchQuery, parseSearchQuery, type SearchQuery } from '../../../src/domain/search/parseSearchQuery.js';
import { searchDocumentsOf, type SearchPiece } from '../../../src/domain/search/searchDocumentsOf.js';
import { searchHitsOf, snippetMaxChars } from '../../../src/domain/search/searchHitsOf.js';
import { searchTermsOf } from '../../../src/domain/search/searchTerms.js';

function query(text: string): SearchQuery {
  const parsed = parseSearchQuery(text);
  if (!isSearchQuery(parsed)) throw new Error(parsed.problem);
  return parsed;
}

const pieces: SearchPiece[] = [
  { kind: 'title', text: 'Contract with <Acme> & Co' },
  { kind: 'summary', text: 'Diane agrees to send the contract.' },
  { kind: 'action', text: 'Send the contract', actionItemId: '7d8e2c55-5c11-4c6f-9c43-3a5d0a0b6d11' },
  { kind: 'segment', text: 'I will send it over today.', segmentId: 'seg_0001', startSeconds: 0, speakerDisplayName: 'Diane' },
  { kind: 'segment', text: 'Great, the contract terms look fine.', segmentId: 'seg_0002', startSeconds: 4.5, speakerDisplayName: 'Sheila' },
];

describe('searchTermsOf', () => {
  test('folds case, diacritics and compatibility forms, and keeps the original offsets', () => {
    expect(searchTermsOf('Café ﬁne, NAÏVE')).toEqual([
      { term: 'cafe', start: 0, end: 4 }, { term: 'fine', start: 5, end: 8 }, { term: 'naive', start: 10, end: 15 },
    ]);
  });
});

describe('searchHitsOf', () => {
  test('pieces matching more of the query come first, then reading order; at most maxHits, hitCount counts all', () => {
    const { hits, hitCount } = searchHitsOf(pieces, query('send contract'), 2);
    expect(hitCount).toBe(5);
    expect(hits.map((hit) => hit.kind)).toEqual(['summary', 'action']);
    expect(hits[1]).toEqual({ kind: 'action', actionItemId: '7d8e2c55-5c11-4c6f-9c43-3a5d0a0b6d11', snippet: '<mark>Send</mark> the <mark>contract</mark>' });
  });

  test('segment hits carry the segment id, start and speaker', () => {
    const { hits } = searchHitsOf(pieces, query('terms'), 3);
    expect(hits).toEqual([{ kind: 'segment', segmentId: 'seg_0002', startSeconds: 4.5, speakerDisplayName: 'Sheila', snippet: 'Great, the contract <mark>terms</mark> look fine.' }]);
  });

  test('everything but the marks is HTML-escaped', () => {
    const { hits } = searchHitsOf(pieces, query('acme'), 3);
    expect(hits[0]!.snippet).toBe('Contract with &lt;<mark>Acme</mark>&gt; &amp; Co');
  });

  test('a phrase is marked as one stretch and only where its words stand together', () => {
    expect(searchHitsOf(pieces, query('"the contract terms"'), 3).hits.map((hit) => hit.snippet)).toEqual(['Great, <mark>the contract terms</mark> look fine.']);
    expect(searchHitsOf(pieces, query('"contract send"'), 3).hitCount).toBe(0);
  });

  test('a prefix marks whole words that begin with it', () => {
    expect(searchHitsOf(pieces, query('contr*'), 1).hits[0]!.snippet).toBe('<mark>Contract</mark> with &lt;Acme&gt; &amp; Co');
  });

  test('a long piece is cut to a window around its first match, on word boundaries', () => {
    const text = `${'word '.repeat(100)}needle ${'tail '.repeat(100)}`.trim();
    const snippet = searchHitsOf([{ kind: 'segment', text, segmentId: 'seg_0001' }], query('needle'), 1).hits[0]!.snippet;
    expect(snippet.startsWith('…word ')).toBe(true);
    expect(snippet.endsWith('tail…')).toBe(true);
    expect(snippet).toContain('<mark>needle</mark>');
    expect(snippet.replace(/<\/?mark>/g, '').length).toBeLessThanOrEqual(snippetMaxChars + 2);
  });
});

describe('matching', () => {
  test('ASCII text (tested by regular expression) matches exactly as the same text cut into words', () => {
    const word = fc.constantFrom('a', 'ab', 'abc', 'b', 'the', 'x1', 'Ab', 'THE');
    const separator = fc.constantFrom(' ', '-', '_', '. ', '\n', "'", '  ');
    const text = fc.array(fc.tuple(word, separator), { minLength: 1, maxLength: 12 }).map((parts) => parts.map(([w, sep]) => w + sep).join(''));
    const clause = fc.tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(([words, prefix]) => {
        const star = prefix && words.at(-1)!.length > 1 ? '*' : '';
        return words.length > 1 ? `"${words.join(' ')}${star}"` : `${words[0]}${star}`;
      });
    fc.assert(fc.property(text, fc.array(clause, { minLength: 1, maxLength: 3 }), (body, clauses) => {
      const parsed = query(clauses.join(' '));
      const ascii = searchHitsOf([{ kind: 'segment', text: body }], parsed, 1);
      // A no-break space is not ASCII and not part of any word: the same words, cut by the tokenizer.
      const cut = searchHitsOf([{ kind: 'segment', text: `${body}\u00a0` }], parsed, 1);
      expect(ascii.hitCount).toBe(cut.hitCount);
    }), { numRuns: 500 });
  });
});

describe('searchDocumentsOf', () => {
  const call = { id: 'c1', seq: 7, userId: 'u1', title: 'Weekly sync' };
  const transcript = { segments: [{ id: 'seg_0001', text: 'Hello there', startSeconds: 1, speakerDisplayName: 'Diane' }, { id: 'seg_0002', text: '  ' }, { text: 'no id' }] };

  test('v2: title, one-line summary and bullets, action items, segments (empty and malformed ones skipped)', () => {
    const analysis = { schemaVersion: 2, oneLineSummary: 'One line', executiveSummary: 'Prose', executiveSummaryBullets: [{ text: 'Bullet' }, 'junk'] };
    const document = searchDocumentsOf(call, transcript, analysis, [{ id: 'a1', title: 'Do it', description: 'By Friday' }]);
    expect(document).toEqual({
      callId: 'c1', callSeq: 7, userId: 'u1',
      pieces: [
        { kind: 'title', text: 'Weekly sync' }, { kind: 'summary', text: 'One line' }, { kind: 'summary', text: 'Bullet' },
        { kind: 'action', text: 'Do it. By Friday', actionItemId: 'a1' },
        { kind: 'segment', text: 'Hello there', segmentId: 'seg_0001', startSeconds: 1, speakerDisplayName: 'Diane' },
      ],
    });
  });

  test('v2 without bullets uses the prose summary; v1 its summary', () => {
    expect(searchDocumentsOf(call, {}, { schemaVersion: 2, executiveSummaryBullets: null, executiveSummary: 'Prose' }, []).pieces[1]).toEqual({ kind: 'summary', text: 'Prose' });
    expect(searchDocumentsOf(call, {}, { schemaVersion: 1, summary: 'Old summary' }, []).pieces[1]).toEqual({ kind: 'summary', text: 'Old summary' });
  });
});

describe('index text', () => {
  test('FTS5 columns hold folded words, pieces of a column apart by the separator', () => {
    const columns = fts5ColumnsOf('u1', pieces);
    expect(columns.title).toBe('contract with acme co');
    expect(columns.transcript).toBe(`i will send it over today ${fts5PieceSeparator} great the contract terms look fine`);
    expect(columns.owner).toBe(`\uE001${Buffer.from('u1').toString('hex')}`);
    // The owner token is one word to FTS5 that no query can hold.
    expect(searchTermsOf(columns.owner).map((word) => word.term)).not.toContain(columns.owner);
  });

  test('the tsvector weighs the title A, summary and actions B, transcript D, with a gap between pieces', () => {
    expect(tsvectorOf([{ kind: 'title', text: "It's" }, { kind: 'summary', text: 'it' }, { kind: 'segment', text: 'it' }])).toBe("'it':1A,4B,6D 's':2A");
  });
});

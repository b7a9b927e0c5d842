import { describe, expect, test } from 'vitest';
import { fts5MatchOf, tsqueryOf } from '../../../src/domain/search/engineSearchSyntax.js';
import { isSearchQuery, maxClauses, parseSearchQuery, type SearchQuery } from '../../../src/domain/search/parseSearchQuery.js';

function parsed(text: string): SearchQuery {
  const query = parseSearchQuery(text);
  if (!isSearchQuery(query)) throw new Error(`expected a query from ${JSON.stringify(text)}, got: ${query.problem}`);
  return query;
}

function clausesOf(text: string) {
  return parsed(text).clauses.map((clause) => ({ ...clause, terms: [...clause.terms] }));
}

describe('parseSearchQuery', () => {
  test('words are separate clauses, folded to lower case without diacritics', () => {
    expect(clausesOf('Contract  PRICING café')).toEqual([
      { terms: ['contract'], prefix: false }, { terms: ['pricing'], prefix: false }, { terms: ['cafe'], prefix: false },
    ]);
  });

  test('a quoted phrase keeps its words together; an unclosed quote runs to the end', () => {
    expect(clausesOf('"send the contract" pricing')).toEqual([{ terms: ['send', 'the', 'contract'], prefix: false }, { terms: ['pricing'], prefix: false }]);
    expect(clausesOf('pricing "next week')).toEqual([{ terms: ['pricing'], prefix: false }, { terms: ['next', 'week'], prefix: false }]);
  });

  test('a star right after a word makes a prefix, also at the end of a phrase', () => {
    expect(clausesOf('contr*')).toEqual([{ terms: ['contr'], prefix: true }]);
    expect(clausesOf('"send the contr*"')).toEqual([{ terms: ['send', 'the', 'contr'], prefix: true }]);
    expect(clausesOf('"send the contr"*')).toEqual([{ terms: ['send', 'the', 'contr'], prefix: true }]);
    expect(clausesOf('contr *')).toEqual([{ terms: ['contr'], prefix: false }]);
  });

  test('a word with punctuation inside is a phrase of its parts', () => {
    expect(clausesOf('follow-up e-mail*')).toEqual([{ terms: ['follow', 'up'], prefix: false }, { terms: ['e', 'mail'], prefix: true }]);
  });

  test('repeated clauses count once', () => {
    expect(clausesOf('contract Contract CONTRACT')).toEqual([{ terms: ['contract'], prefix: false }]);
  });

  test.each([
    ['" OR *', [{ terms: ['or'], prefix: false }]],
    ['NEAR(a b)', [{ terms: ['near', 'a'], prefix: false }, { terms: ['b'], prefix: false }]],
    ['NEAR( a , b )', [{ terms: ['near'], prefix: false }, { terms: ['a'], prefix: false }, { terms: ['b'], prefix: false }]],
    ['"a" OR "b" NOT c', [{ terms: ['a'], prefix: false }, { terms: ['or'], prefix: false }, { terms: ['b'], prefix: false }, { terms: ['not'], prefix: false }, { terms: ['c'], prefix: false }]],
    ['title:secret', [{ terms: ['title', 'secret'], prefix: false }]],
    ['-pricing ^start', [{ terms: ['pricing'], prefix: false }, { terms: ['start'], prefix: false }]],
    ['a & b | !c <-> d', [{ terms: ['a'], prefix: false }, { terms: ['b'], prefix: false }, { terms: ['c'], prefix: false }, { terms: ['d'], prefix: false }]],
    ["o'brien\\", [{ terms: ['o', 'brien'], prefix: false }]],
    ['{owner}: u1234', [{ terms: ['owner'], prefix: false }, { terms: ['u1234'], prefix: false }]],
  ])('FTS and tsquery syntax in %j is only words', (text, expected) => {
    expect(clausesOf(text)).toEqual(expected);
  });

  test.each(['', '   ', '"', '""', '***', '" * :', '-- ; )( <-> &|!', '\u0301'])('a query with no word (%j) is a problem', (text) => {
    expect(isSearchQuery(parseSearchQuery(text))).toBe(false);
  });

  test('a one-letter prefix, too many clauses or too many words are problems', () => {
    expect(parseSearchQuery('a*')).toEqual({ problem: expect.stringContaining('prefix') });
    expect(isSearchQuery(parseSearchQuery(Array.from({ length: maxClauses + 1 }, (_, index) => `word${index}`).join(' ')))).toBe(false);
    expect(isSearchQuery(parseSearchQuery(`"${Array.from({ length: 33 }, (_, index) => `w${index}`).join(' ')}"`))).toBe(false);
  });

  test('the key tells different queries apart and equal ones alike', () => {
    expect(parsed('Contract pricing').key).toBe(parsed('contract   PRICING').key);
    expect(parsed('contract pricing').key).not.toBe(parsed('"contract pricing"').key);
    expect(parsed('contract').key).not.toBe(parsed('contract*').key);
  });
});

describe('engine query strings', () => {
  test('FTS5: the owner token, then every clause quoted', () => {
    expect(fts5MatchOf(parsed('"send the" contr* " OR NEAR('), 'user-1')).toBe(
      `owner : "\uE001${Buffer.from('user-1').toString('hex')}" AND ("send the" AND "contr" * AND "or near")`,
    );
  });

  test('tsquery: quoted lexemes, phrases with <->, prefixes with :*', () => {
    expect(tsqueryOf(parsed('"send the" contr* pricing'))).toBe("('send' <-> 'the') & ('contr':*) & ('pricing')");
  });
});

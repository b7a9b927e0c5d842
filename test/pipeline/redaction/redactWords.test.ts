import { describe, expect, test } from 'vitest';
import { redactKindsOf, redactProblems, redactionKinds, type RedactionKind } from '../../../src/pipeline/redaction/redactionKinds.js';
import { isIban, redactWords } from '../../../src/pipeline/redaction/redactWords.js';
import { passesLuhn } from '../../../src/pipeline/redaction/spokenDigits.js';
import type { TranscribedWord } from '../../../src/pipeline/speechTypes.js';

/** Words half a second apart, 0.4 s long each. */
function wordsOf(sentence: string): TranscribedWord[] {
  return sentence.split(/\s+/).filter(Boolean).map((text, index) => ({ text, startSeconds: index * 0.5, endSeconds: index * 0.5 + 0.4, probability: 0.9 }));
}

function redacted(sentence: string, kinds: readonly RedactionKind[] = redactionKinds): string {
  return redactWords(wordsOf(sentence), kinds).words.map((word) => word.text).join(' ');
}

describe('payment cards', () => {
  test.each([
    ['My card is 4111 1111 1111 1111, expiring soon.', 'My card is [CARD], expiring soon.'],
    ['it is 4111111111111111.', 'it is [CARD].'],
    ['number 4111-1111-1111-1111 thanks', 'number [CARD] thanks'],
    ['four one one one one one one one one one one one one one one one please', '[CARD] please'],
    ['five five five five double five five five five five five five four four four four ok', '[CARD] ok'],
    ['3782 822463 10005 is the amex', '[CARD] is the amex'],
    ['so 5500 oh oh oh oh oh oh oh oh oh oh oh four right', 'so [CARD] right'],
    ['it is 2 4111 1111 1111 1111 and', 'it is 2 [CARD] and'],
  ])('%s', (sentence, expected) => {
    expect(redacted(sentence, ['card'])).toBe(expected);
  });

  test.each([
    'My card is 4111 1111 1111 1112 thanks',
    'I have four cats and two dogs',
    'order 1234 5678 9012',
    'call 555 0100 today',
  ])('not a card: %s', (sentence) => {
    expect(redacted(sentence, ['card'])).toBe(sentence);
  });

  test('the placeholder keeps the span\'s times and the counts say how many', () => {
    const result = redactWords(wordsOf('pay with 4111 1111 1111 1111 or 5555 5555 5555 4444'), ['card']);
    expect(result.counts).toEqual({ card: 2 });
    expect(result.spans).toEqual([
      { kind: 'card', startSeconds: 1, endSeconds: 2.9 },
      { kind: 'card', startSeconds: 3.5, endSeconds: 5.4 },
    ]);
    expect(result.words.map((word) => word.text)).toEqual(['pay', 'with', '[CARD]', 'or', '[CARD]']);
    expect(result.words[2]).toMatchObject({ startSeconds: 1, endSeconds: 2.9 });
  });

  test('Luhn', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('79927398713')).toBe(true);
  });
});

describe('bank accounts', () => {
  test.each([
    ['IBAN GB82 WEST 1234 5698 7654 32 please', 'IBAN [IBAN] please'],
    ['it is DE89370400440532013000.', 'it is [IBAN].'],
    ['my account number is 12345678 and', 'my account number is [IBAN] and'],
    ['G B eight two WEST one two three four five six nine eight seven six five four three two done', '[IBAN] done'],
  ])('%s', (sentence, expected) => {
    expect(redacted(sentence, ['iban'])).toBe(expected);
  });

  test.each(['GB82 WEST 1234 5698 7654 33 please', 'it is 20 past ten and the weather is fine', 'we sold 12345678 units'])('not an account: %s', (sentence) => {
    expect(redacted(sentence, ['iban'])).toBe(sentence);
  });

  test('mod 97', () => {
    expect(isIban('GB82WEST12345698765432')).toBe(true);
    expect(isIban('GB82WEST12345698765431')).toBe(false);
  });
});

describe('national IDs', () => {
  test.each([
    ['my SSN is 123-45-6789 ok', 'my SSN is [NATIONAL_ID] ok'],
    ['it is 123 45 6789 ok', 'it is [NATIONAL_ID] ok'],
    ['social security number one two three four five six seven eight nine thanks', 'social security number [NATIONAL_ID] thanks'],
    ['national insurance QQ123456C fine', 'national insurance [NATIONAL_ID] fine'],
  ])('%s', (sentence, expected) => {
    expect(redacted(sentence, ['national_id'])).toBe(expected);
  });

  test.each(['we shipped 123456789 items', 'the ID badge is blue'])('not an ID: %s', (sentence) => {
    expect(redacted(sentence, ['national_id'])).toBe(sentence);
  });
});

describe('dates of birth', () => {
  test.each([
    ['I was born on 12 March 1985 in Leeds', 'I was born on [DATE_OF_BIRTH] in Leeds'],
    ['date of birth is the twelfth of March nineteen eighty-five.', 'date of birth is the [DATE_OF_BIRTH].'],
    ['DOB 03/12/1985 thanks', 'DOB [DATE_OF_BIRTH] thanks'],
    ['my birthday is March 3rd', 'my birthday is [DATE_OF_BIRTH]'],
  ])('%s', (sentence, expected) => {
    expect(redacted(sentence, ['date_of_birth'])).toBe(expected);
  });

  test.each(['the meeting is on 12 March 1985', 'I was born and raised in Leeds', 'born one of three kids'])('not a date of birth: %s', (sentence) => {
    expect(redacted(sentence, ['date_of_birth'])).toBe(sentence);
  });
});

describe('e-mail addresses', () => {
  test.each([
    ['write to john.smith@example.com, thanks', 'write to [EMAIL], thanks'],
    ['it is john dot smith at example dot com okay', 'it is [EMAIL] okay'],
    ['my email is jane at example dot co dot uk.', 'my email is [EMAIL].'],
  ])('%s', (sentence, expected) => {
    expect(redacted(sentence, ['email'])).toBe(expected);
  });

  test.each(['look at google dot com for that', 'meet me at the station', 'we are at 5 o clock'])('not an e-mail: %s', (sentence) => {
    expect(redacted(sentence, ['email'])).toBe(sentence);
  });
});

describe('phone numbers', () => {
  test.each([
    ['call me on 07700 900123 tomorrow', 'call me on [PHONE] tomorrow'],
    ['it is +44 20 7946 0958 okay', 'it is [PHONE] okay'],
    ['my number is five five five one two three four five six seven', 'my number is [PHONE]'],
    ['try 555-123-4567 later', 'try [PHONE] later'],
  ])('%s', (sentence, expected) => {
    expect(redacted(sentence, ['phone'])).toBe(expected);
  });

  test.each(['we sold 1234567 units', 'I have four cats', 'call me at 5'])('not a phone number: %s', (sentence) => {
    expect(redacted(sentence, ['phone'])).toBe(sentence);
  });
});

describe('kinds', () => {
  test('only the kinds asked for are redacted; counts name each of them', () => {
    const sentence = 'card 4111 1111 1111 1111 and mail john.smith@example.com';
    expect(redacted(sentence, ['card'])).toBe('card [CARD] and mail john.smith@example.com');
    expect(redactWords(wordsOf(sentence), ['card', 'phone']).counts).toEqual({ card: 1, phone: 0 });
    expect(redactWords(wordsOf(sentence), []).words).toEqual(wordsOf(sentence));
  });

  test('REDACT values', () => {
    expect(redactKindsOf(undefined)).toEqual(['card']);
    expect(redactKindsOf('none')).toEqual([]);
    expect(redactKindsOf('')).toEqual([]);
    expect(redactKindsOf('Phone, card,card')).toEqual(['card', 'phone']);
    expect(redactProblems('card, emails')).toEqual(['unknown kind "emails"; the kinds are card, iban, national_id, date_of_birth, email, phone (or none)']);
    expect(redactProblems('none,card')).toHaveLength(1);
    expect(redactProblems('card email')).toEqual([]);
  });
});

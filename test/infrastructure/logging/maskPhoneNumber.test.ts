import { describe, expect, test } from 'vitest';
import { maskPhoneNumber } from '../../../src/infrastructure/logging/maskPhoneNumber.js';

describe('maskPhoneNumber', () => {
  test('keeps only the last two digits', () => {
    expect(maskPhoneNumber('+15551234567')).toBe('+*********67');
    expect(maskPhoneNumber('5551234')).toBe('*****34');
  });

  test('keeps separators and their positions', () => {
    expect(maskPhoneNumber('+1 555 123 4567')).toBe('+* *** *** **67');
    expect(maskPhoneNumber('(555) 123-45.67')).toBe('(***) ***-**.67');
  });

  test('a number of two digits or fewer has nothing to hide', () => {
    expect(maskPhoneNumber('42')).toBe('42');
    expect(maskPhoneNumber('7')).toBe('7');
  });

  test('no run of three digits survives', () => {
    for (const number of ['+44 20 7946 0958', '0049-30-123456', '+1 (555) 010-9999']) {
      expect(maskPhoneNumber(number)).not.toMatch(/\d{3}/);
      expect(maskPhoneNumber(number).replace(/[^0-9]/g, '')).toBe(number.replace(/\D/g, '').slice(-2));
    }
  });
});

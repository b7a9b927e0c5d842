/**
 * A phone number safe for logs: every digit but the last two replaced by `*`, separators kept
 * (`+1 555 123 4567` → `+* *** *** **67`). Numbers are personal data; the tail is enough to
 * tell two apart while debugging.
 */
export function maskPhoneNumber(phoneNumber: string): string {
  const digits = phoneNumber.replace(/\D/g, '').length;
  let seen = 0;
  return phoneNumber.replace(/\d/g, (digit) => (++seen > digits - 2 ? digit : '*'));
}

/**
 * Whether `address` (a socket's remote address as Node.js gives it) is the box itself:
 * 127.0.0.0/8, `::1`, or an IPv4 loopback address mapped into IPv6 (`::ffff:127.0.0.1`,
 * what a dual-stack socket reports).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (address === '::1') return true;
  const ipv4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipv4);
}

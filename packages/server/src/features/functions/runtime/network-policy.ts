import { BlockList, isIP } from 'node:net';

// Where a function may connect: the internet, and Basalt itself through the gateway's own path. Never the machine's
// own addresses, private networks, link-local addresses (169.254.169.254 is the cloud metadata service), carrier
// NAT, documentation or benchmark ranges, multicast or reserved space, in IPv4 or IPv6 (including IPv4 written
// inside IPv6), nor mail submission ports (like Supabase). The gateway checks the address a name resolves to, at
// connect time, so a name that resolves to a private address (DNS rebinding) is refused too.

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** BLOCKED_PORTS are ports no function may connect to (SMTP, as Supabase). */
export const BLOCKED_PORTS = new Set([25, 587]);

// An IPv4 address written as IPv6 (::ffff:10.0.0.1, or its hex form ::ffff:a00:1) is judged as IPv4.
function embeddedIPv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted =
    /^(?:0{0,4}:){0,5}(?:0{0,4}|ffff):(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ??
    /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** isPublicAddress tells whether an IP address is one a function may reach; anything that is not an IP is not. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return !blocked.check(bare, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIPv4(bare);
  if (v4 !== null) return isIP(v4) === 4 && !blocked.check(v4, 'ipv4');
  return !blocked.check(bare, 'ipv6');
}

import { isIPv4, isIPv6 } from "node:net";

/** Why an address is (or is not) reachable by the fetch plugin. Everything but "public" is refused. */
export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "unique-local"
  | "cgnat"
  | "multicast"
  | "documentation"
  | "reserved";

interface Range {
  readonly prefix: readonly number[];
  readonly bits: number;
  readonly kind: Exclude<AddressClass, "public">;
}

const range = (prefix: readonly number[], bits: number, kind: Range["kind"]): Range => ({ prefix, bits, kind });

// IANA special-purpose registries (RFC 6890 and successors): nothing here is a public internet host.
const IPV4_BLOCKED: readonly Range[] = [
  range([0], 8, "unspecified"),
  range([10], 8, "private"),
  range([100, 64], 10, "cgnat"),
  range([127], 8, "loopback"),
  range([169, 254], 16, "link-local"),
  range([172, 16], 12, "private"),
  range([192, 0, 0], 24, "reserved"),
  range([192, 0, 2], 24, "documentation"),
  range([192, 88, 99], 24, "reserved"),
  range([192, 168], 16, "private"),
  range([198, 18], 15, "reserved"),
  range([198, 51, 100], 24, "documentation"),
  range([203, 0, 113], 24, "documentation"),
  range([224], 4, "multicast"),
  range([240], 4, "reserved"),
];

const IPV6_BLOCKED: readonly Range[] = [
  range([0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, "reserved"), // discard-only
  range([0x20, 0x01, 0x0d, 0xb8], 32, "documentation"),
  range([0x20, 0x01, 0, 0], 32, "reserved"), // Teredo tunnels
  range([0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, "reserved"), // local-use NAT64
  range([0xfc], 7, "unique-local"),
  range([0xfe, 0x80], 10, "link-local"),
  range([0xfe, 0xc0], 10, "reserved"), // deprecated site-local
  range([0xff], 8, "multicast"),
];

function matches(bytes: Uint8Array, { prefix, bits }: Range): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function parseIPv4(text: string): Uint8Array {
  return Uint8Array.from(text.split(".").map(Number));
}

/** 16 bytes of an IPv6 address (zone id dropped, embedded dotted quad honoured). */
function parseIPv6(text: string): Uint8Array {
  let head = text;
  const bytes = new Uint8Array(16);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (dotted?.[1] !== undefined) {
    bytes.set(parseIPv4(dotted[1]), 12);
    head = `${head.slice(0, -dotted[1].length)}0:0`;
  }
  const [left = "", right] = head.split("::");
  const leftGroups = left === "" ? [] : left.split(":");
  const rightGroups = right === undefined || right === "" ? [] : right.split(":");
  const groups = [...leftGroups, ...Array<string>(8 - leftGroups.length - rightGroups.length).fill("0"), ...rightGroups];
  groups.forEach((group, index) => {
    if (dotted && index >= 6) return;
    const value = Number.parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function classifyV4(bytes: Uint8Array): AddressClass {
  return IPV4_BLOCKED.find((r) => matches(bytes, r))?.kind ?? "public";
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(bytes: Uint8Array): Uint8Array | undefined {
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12)) return bytes.slice(12);
  if (matches(bytes, range([0x00, 0x64, 0xff, 0x9b], 96, "reserved"))) return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

function classifyV6(bytes: Uint8Array): AddressClass {
  if (bytes.every((b) => b === 0)) return "unspecified";
  if (bytes.subarray(0, 15).every((b) => b === 0) && bytes[15] === 1) return "loopback";
  const v4 = embeddedV4(bytes);
  if (v4 !== undefined) return classifyV4(v4);
  const blocked = IPV6_BLOCKED.find((r) => matches(bytes, r));
  if (blocked !== undefined) return blocked.kind;
  // Only 2000::/3 is allocated as global unicast; everything else is unassigned or special.
  return (bytes[0] ?? 0) >> 5 === 1 ? "public" : "reserved";
}

function stripZone(address: string): string {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  return bare.split("%")[0] ?? bare;
}

/** Classify an IP address; throws for text that is not one (callers pass resolved or literal IPs). */
export function classifyAddress(address: string): AddressClass {
  const bare = stripZone(address);
  if (isIPv4(bare)) return classifyV4(parseIPv4(bare));
  if (isIPv6(bare)) return classifyV6(parseIPv6(bare));
  throw new TypeError(`not an IP address: ${address}`);
}

/**
 * A canonical key for comparing addresses: dotted quad for IPv4 and IPv4-mapped IPv6 (the same
 * endpoint), 32 hex digits for other IPv6. undefined for non-addresses.
 */
export function addressKey(address: string): string | undefined {
  const bare = stripZone(address);
  if (isIPv4(bare)) return parseIPv4(bare).join(".");
  if (!isIPv6(bare)) return undefined;
  const bytes = parseIPv6(bare);
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12).join(".");
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

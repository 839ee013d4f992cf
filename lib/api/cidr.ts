/** CIDR ranges as NetworkPolicy ipBlocks write them, checked with node's BlockList (no DNS, no I/O). */
import { BlockList, isIP } from "node:net";

export type IpFamily = "ipv4" | "ipv6";
export interface Cidr {
  readonly address: string;
  readonly prefix: number;
  readonly family: IpFamily;
}

/** The family of an IP literal, or undefined for anything else (a host name). */
export function ipFamily(address: string): IpFamily | undefined {
  const version = isIP(address);
  return version === 4 ? "ipv4" : version === 6 ? "ipv6" : undefined;
}

/** `10.0.0.0/8` → its parts, or undefined for anything else. */
export function parseCidr(cidr: string): Cidr | undefined {
  const [address = "", prefix = "", ...rest] = cidr.split("/");
  const family = ipFamily(address);
  const max = family === "ipv6" ? 128 : 32;
  if (!family || rest.length > 0 || !/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return undefined;
  return { address, prefix: Number(prefix), family };
}

/** Whether the IP literal `ip` lies in `range` (a malformed range holds nothing). */
export function inCidr(ip: string, range: string): boolean {
  const cidr = parseCidr(range);
  const family = ipFamily(ip);
  if (!cidr || family !== cidr.family) return false;
  const list = new BlockList();
  list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  return list.check(ip, family);
}

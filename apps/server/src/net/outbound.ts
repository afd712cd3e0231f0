import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';

/**
 * Outbound connections to a server a person named (a WebDAV URL, an IMAP host): the name is resolved once, every
 * address it resolves to is checked, and the socket goes to a checked address and nowhere else. Without this the
 * server is a port scanner and a blind request forwarder into its own network (loopback services, the LAN, the cloud
 * metadata endpoint).
 *
 * Verdicts:
 * - public: global unicast; always allowed.
 * - private: loopback, RFC 1918, CGNAT (100.64/10), unique-local (fc00::/7), old site-local (fec0::/10). Allowed
 *   only when the operator says so (a person's own NAS or mail server on the LAN, in a one-person installation).
 * - forbidden, whatever the operator says: unspecified, broadcast, multicast, link-local (169.254/16 is where cloud
 *   metadata lives; fe80::/10 needs a zone), reserved and documentation ranges, the cloud metadata addresses, IPv4-
 *   compatible IPv6 (::a.b.c.d, deprecated) and the 6to4 / Teredo tunnels (they carry any IPv4 address).
 * IPv4-mapped (::ffff:a.b.c.d), SIIT (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::/96; the local-use 64:ff9b:1::/48 is at
 * least private) addresses are judged by the IPv4 address they carry.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (never empty on success). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** Private-network targets (loopback, RFC 1918, CGNAT, unique-local) are allowed. */
  allowPrivate: boolean;
  /** Name resolution; default the system's (getaddrinfo, as Node's sockets use). Tests inject their own. */
  resolve?: Resolver;
}

export type AddressVerdict = 'public' | 'private' | 'forbidden';

export interface AddressClass {
  verdict: AddressVerdict;
  /** Why: the range the address is in (`loopback`, `metadata`, `ipv4Mapped:private`, ...), for logs and tests. */
  range: string;
}

/** A target that passed the check: the name to use for TLS and Host, and the addresses to connect to. */
export interface CheckedTarget {
  /** The host as given, without IPv6 brackets. */
  host: string;
  /** For TLS SNI and certificate checks: the host name, or undefined when the host is an address. */
  servername: string | undefined;
  addresses: ResolvedAddress[];
}

const TARGET_NOT_ALLOWED = 'target_not_allowed';

/** The target is not allowed by the policy (or has no address). The message is for logs, not for the person. */
export class OutboundTargetError extends AppError {
  constructor(message: string) {
    super(message, { code: TARGET_NOT_ALLOWED, status: 422 });
  }
}

/**
 * What a person is told when a server they named could not be reached, whatever the reason (refused, timed out, not
 * that protocol, no such folder, wrong password, not allowed): a different text for each would tell an open port
 * from a closed one. The reason is kept as `cause`, for the log.
 */
export class ConnectionFailedError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'connection_failed', status: 422, cause });
  }
}

// Metadata services of cloud providers; denied even when private targets are allowed. Most are link-local (denied
// anyway) or in ranges the operator may allow (CGNAT, unique-local); Azure's is a public address.
const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure IMDS, OpenStack, DigitalOcean, ...
  '169.254.170.2', // AWS ECS task credentials
  '169.254.170.23', // AWS EKS pod identity
  'fd00:ec2::254', // AWS IMDS over IPv6
  'fd00:ec2::23', // AWS EKS pod identity over IPv6
  '168.63.129.16', // Azure WireServer
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
].map((a) => ipaddr.parse(a).toNormalizedString());

const PRIVATE_V4 = new Set(['loopback', 'private', 'carrierGradeNat']);
const PRIVATE_V6 = new Set(['loopback', 'uniqueLocal', 'deprecatedSiteLocal']);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** The verdict on one IP address (a host name is never an address: it gets `forbidden`). */
export function classifyAddress(text: string): AddressClass {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(bare) === 0) return { verdict: 'forbidden', range: 'not an address' };
  const address = ipaddr.parse(withHexTail(bare));
  if (METADATA_ADDRESSES.includes(address.toNormalizedString())) return { verdict: 'forbidden', range: 'metadata' };
  if (address.kind() === 'ipv4') return classifyV4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  const range: string = v6.range();
  const bytes = v6.toByteArray();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return carriedBy(range, bytes);
  if (range === 'rfc6052') {
    // The well-known NAT64 prefix reaches what its IPv4 address reaches. The local-use 64:ff9b:1::/48 is the
    // operator's own translator (RFC 8215): at least private. Both are judged with the /96 layout (RFC 6052 §2.2),
    // the one translators use.
    if (v6.match(NAT64_WELL_KNOWN)) return carriedBy('nat64', bytes);
    const inner = carriedBy('nat64Local', bytes);
    return inner.verdict === 'public' ? { ...inner, verdict: 'private' } : inner;
  }
  if (range === 'unicast') {
    if (bytes.slice(0, 12).every((b) => b === 0)) return { verdict: 'forbidden', range: 'ipv4Compatible' };
    if (!v6.match(GLOBAL_UNICAST_V6)) return { verdict: 'forbidden', range: 'unassigned' };
    return { verdict: 'public', range };
  }
  return { verdict: PRIVATE_V6.has(range) ? 'private' : 'forbidden', range };
}

/**
 * An IPv6 text with a dotted IPv4 tail (`::127.0.0.1`, as glibc prints IPv4-compatible addresses) in plain hex:
 * ipaddr.js 2.5 reads any dotted tail as IPv4-mapped (`::ffff:…`), which is another address.
 */
function withHexTail(text: string): string {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/.exec(text);
  if (!dotted) return text;
  const [a, b, c, d] = dotted.slice(2, 6).map(Number) as [number, number, number, number];
  return `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}${dotted[6] ?? ''}`;
}

function classifyV4(address: ipaddr.IPv4): AddressClass {
  if (METADATA_ADDRESSES.includes(address.toNormalizedString())) return { verdict: 'forbidden', range: 'metadata' };
  const range: string = address.range();
  if (range === 'unicast') return { verdict: 'public', range };
  return { verdict: PRIVATE_V4.has(range) ? 'private' : 'forbidden', range };
}

/** The verdict on the IPv4 address in the last 32 bits of an IPv6 address, named after the form that carries it. */
function carriedBy(form: string, bytes: number[]): AddressClass {
  const inner = classifyV4(new ipaddr.IPv4(bytes.slice(12)));
  return { verdict: inner.verdict, range: `${form}:${inner.range}` };
}

/** Whether the policy lets a socket go to this address; the reason when it does not. */
export function deniedReason(address: string, policy: Pick<OutboundPolicy, 'allowPrivate'>): string | null {
  const { verdict, range } = classifyAddress(address);
  if (verdict === 'public' || (verdict === 'private' && policy.allowPrivate)) return null;
  return range;
}

const systemResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * Resolves `host` once and checks every address it resolves to: one address the policy refuses refuses the host (a
 * name that answers with a public and a private address must not get to choose). An address literal is checked as
 * it is. Throws OutboundTargetError; resolution errors (ENOTFOUND, ...) pass through.
 */
export async function resolveTarget(host: string, policy: OutboundPolicy): Promise<CheckedTarget> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare);
  const addresses: ResolvedAddress[] =
    family !== 0 ? [{ address: bare, family: family as 4 | 6 }] : await (policy.resolve ?? systemResolver)(bare);
  if (addresses.length === 0) throw new OutboundTargetError(`${bare} has no address`);
  for (const { address } of addresses) {
    const reason = deniedReason(address, policy);
    if (reason) {
      const what = family !== 0 ? address : `${bare} resolves to ${address}, which`;
      throw new OutboundTargetError(`${what} is not an allowed target (${reason})`);
    }
  }
  return { host: bare, servername: family !== 0 ? undefined : bare, addresses };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls `connect` that answers only with the checked addresses: the socket cannot do a second, other
 * resolution. Supports `all` (Node's happy-eyeballs connect asks for every address).
 */
export function pinnedLookup(target: CheckedTarget) {
  return (hostname: string, options: dns.LookupOptions | number, callback: LookupCallback): void => {
    if (hostname.replace(/^\[(.*)\]$/, '$1') !== target.host) {
      callback(new OutboundTargetError(`${hostname} was not checked`), '');
      return;
    }
    const wanted = typeof options === 'object' ? options.family : options;
    const family = wanted === 'IPv4' ? 4 : wanted === 'IPv6' ? 6 : wanted;
    const addresses = target.addresses.filter((a) => !family || a.family === family);
    if (addresses.length === 0) {
      callback(Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      return;
    }
    if (typeof options === 'object' && options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

type ConnectionArgs = http.ClientRequestArgs & { lookup?: unknown };
type CreateConnection = (options: ConnectionArgs) => Duplex;

/**
 * Checks the host of every socket an HTTP agent opens: the first request, keep-alive replacements and every redirect
 * the HTTP client follows (to an address literal too, which Node would connect to without any lookup). The Host
 * header and TLS SNI stay on the name from the URL; only the resolution is ours.
 */
function guardConnections(agent: http.Agent, policy: OutboundPolicy): void {
  const create = (agent.createConnection as CreateConnection).bind(agent);
  agent.createConnection = ((options: ConnectionArgs, callback: (err: Error | null, socket: Duplex) => void) => {
    resolveTarget(String(options.host ?? options.hostname ?? 'localhost'), policy).then(
      (target) => {
        let socket: Duplex;
        try {
          // Without the callback: net.createConnection would take it for a 'connect' listener.
          socket = create({ ...options, lookup: pinnedLookup(target) });
        } catch (error) {
          callback(error as Error, undefined as unknown as Duplex);
          return;
        }
        callback(null, socket);
      },
      (error: Error) => callback(error, undefined as unknown as Duplex),
    );
    // The socket comes through the callback (http.Agent waits for it).
    return undefined;
  }) as unknown as typeof agent.createConnection;
}

/** HTTP and HTTPS agents that connect only to targets the policy allows. */
export function guardedAgents(
  policy: OutboundPolicy,
  options: http.AgentOptions = {},
): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const httpAgent = new http.Agent(options);
  const httpsAgent = new https.Agent(options);
  guardConnections(httpAgent, policy);
  guardConnections(httpsAgent, policy);
  return { httpAgent, httpsAgent };
}

/**
 * Whether an error is the policy's refusal, also when an HTTP client wrapped it: node-fetch (under the webdav client)
 * keeps only the code and message of a socket error.
 */
export function isOutboundRefusal(error: unknown): boolean {
  let current = error as { code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (current instanceof OutboundTargetError || current.code === TARGET_NOT_ALLOWED) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/** A TCP connection to a checked address of `host` (no data sent); resolves once connected. */
export async function connectChecked(
  host: string,
  port: number,
  policy: OutboundPolicy,
  timeoutMs: number,
): Promise<net.Socket> {
  const target = await resolveTarget(host, policy);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.host, port, lookup: pinnedLookup(target), timeout: timeoutMs });
    socket.once('connect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

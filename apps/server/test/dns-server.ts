import dns2 from 'dns2';
import type { AddressInfo } from 'node:net';

const { Packet } = dns2;
/** Response codes (RFC 1035 §4.1.1); dns2's type declarations leave Packet.RCODE out. */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;
type DnsResource = InstanceType<typeof Packet>['answers'][number];

/**
 * What a name answers: TXT records (each a string, or its chunks as an array), or 'servfail' to
 * simulate a broken server. Names are matched lower-case without a trailing dot.
 */
export type TxtAnswer = Array<string | string[]> | 'servfail' | (() => Promise<Array<string | string[]>>);
export type Zone = Record<string, TxtAnswer>;
export type MxRecord = { exchange: string; priority: number };
export type MxZone = Record<string, MxRecord[]>;

export type TestDnsServer = {
  address: string;
  port: number;
  /** The value for DNS_SERVERS. */
  server: string;
  setTxt(name: string, records: Array<string | string[]>): void;
  /** MX records of a name (exchange '' publishes a null MX); a name with MX only answers NODATA for TXT. */
  setMx(name: string, records: MxRecord[]): void;
  /** Records computed when the question arrives (e.g. read from the database at that moment). */
  setTxtLater(name: string, records: () => Promise<Array<string | string[]>>): void;
  fail(name: string): void;
  remove(name: string): void;
  clear(): void;
  close(): Promise<void>;
};

const normalise = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** Splits a long value into the 255-byte character-strings a TXT record is made of. */
export function txtChunks(value: string): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < value.length; i += 255) chunks.push(value.slice(i, i + 255));
  return chunks.length > 0 ? chunks : [''];
}

/**
 * Answers one question from a zone like an authoritative server: the TXT records of a known name,
 * NODATA (no answers, no error) for a name that exists only as a parent of others or has no TXT,
 * NXDOMAIN for an unknown name, SERVFAIL where asked to.
 */
async function answer(zone: Zone, request: InstanceType<typeof Packet>, mxZone: MxZone = {}) {
  const response = Packet.createResponseFromRequest(request);
  response.header.aa = 1;
  const question = request.questions[0];
  if (!question) return response;
  const name = normalise(question.name);
  const mx = mxZone[name];
  if (mx) {
    if (question.type === Packet.TYPE.MX) {
      for (const record of mx) {
        const answerRecord = { name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 1, ...record };
        response.answers.push(answerRecord as unknown as DnsResource);
      }
    }
    if (zone[name] === undefined) return response;
  }
  const stored = zone[name];
  const entry = typeof stored === 'function' ? await stored() : stored;
  if (entry === 'servfail') {
    response.header.rcode = RCODE.SERVFAIL;
    return response;
  }
  if (entry === undefined) {
    const isParent = Object.keys(zone).some((known) => known.endsWith(`.${name}`));
    if (!isParent) response.header.rcode = RCODE.NXDOMAIN;
    return response;
  }
  if (question.type === Packet.TYPE.TXT) {
    for (const record of entry) {
      const txt = {
        name: question.name,
        type: Packet.TYPE.TXT,
        class: Packet.CLASS.IN,
        ttl: 1,
        data: Array.isArray(record) ? record : txtChunks(record),
      };
      // A plain record object is what dns2 encodes; its declarations ask for a parsed Resource instance.
      response.answers.push(txt as unknown as DnsResource);
    }
  }
  return response;
}

/**
 * A local DNS server on UDP and TCP (same port, for truncated answers) serving TXT records from
 * `zone()`, which is read on every question (so a test, or a file-backed zone, can change it).
 */
export async function startDnsServerFor(
  zone: () => Zone | Promise<Zone>,
  options: { address?: string; port?: number; mxZone?: MxZone } = {},
) {
  const address = options.address ?? '127.0.0.1';
  const respond = async (
    request: InstanceType<typeof Packet>,
    send: (response: InstanceType<typeof Packet>) => Promise<unknown>,
  ) => {
    let response;
    try {
      response = await answer(await zone(), request, options.mxZone);
    } catch {
      response = Packet.createResponseFromRequest(request);
      response.header.rcode = RCODE.SERVFAIL;
    }
    send(response).catch(() => undefined);
  };
  // dns2 calls its handler for each query and ignores what it returns; respond never rejects (a failed
  // look-up answers SERVFAIL, a failed send is dropped as a lost UDP packet would be).
  const handle = (
    request: InstanceType<typeof Packet>,
    send: (response: InstanceType<typeof Packet>) => Promise<unknown>,
  ): void => {
    void respond(request, send);
  };
  const udp = dns2.createUDPServer(handle);
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(options.port ?? 0, address, () => resolve());
  });
  const port = (udp.address() as AddressInfo).port;
  // TCP on the same port serves answers too large for UDP; if that port is taken over TCP, UDP alone still answers the app's look-ups.
  const tcp = dns2.createTCPServer(handle);
  const tcpListening = await new Promise<boolean>((resolve) => {
    tcp.once('error', () => resolve(false));
    tcp.listen(port, address, () => resolve(true));
  });
  return {
    address,
    port,
    server: `${address}:${port}`,
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        tcpListening ? new Promise<void>((resolve) => tcp.close(() => resolve())) : Promise.resolve(),
      ]);
    },
  };
}

/** A local DNS server whose records each test sets. */
export async function startTestDnsServer(): Promise<TestDnsServer> {
  const zone: Zone = {};
  const mxZone: MxZone = {};
  const server = await startDnsServerFor(() => zone, { mxZone });
  return {
    ...server,
    setTxt: (name, records) => void (zone[normalise(name)] = records),
    setMx: (name, records) => void (mxZone[normalise(name)] = records),
    setTxtLater: (name, records) => void (zone[normalise(name)] = records),
    fail: (name) => void (zone[normalise(name)] = 'servfail'),
    remove: (name) => {
      delete zone[normalise(name)];
      delete mxZone[normalise(name)];
    },
    clear: () => {
      for (const name of Object.keys(zone)) delete zone[name];
      for (const name of Object.keys(mxZone)) delete mxZone[name];
    },
  };
}

import dns2 from 'dns2';

const { Packet } = dns2;

export type TestDnsServer = {
  /** What DNS_SERVERS takes: `127.0.0.1:<port>`. */
  address: string;
  /** Publishes TXT records at `name` (replacing what was there); an empty list removes the name. */
  setTxt(name: string, values: string[]): void;
  /** Answers SERVFAIL for every query while true, as a broken or unreachable resolver would. */
  failAll(fail: boolean): void;
  close(): Promise<void>;
};

/**
 * A real DNS server (the `dns2` package) on a loopback UDP port that answers TXT queries from the records a test
 * publishes: NOERROR with the records, NOERROR without answers for a name holding none of that type, NXDOMAIN for an
 * unknown name. `records` may read them from elsewhere (the e2e harness shares them through files).
 */
export async function startDnsServer(
  opts: { records?: (name: string) => string[] | undefined } = {},
): Promise<TestDnsServer> {
  const published = new Map<string, string[]>();
  const lookup = opts.records ?? ((name: string) => published.get(name));
  let failing = false;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (failing || !question) {
        response.header.rcode = Packet.RCODE.SERVFAIL;
        void send(response);
        return;
      }
      const name = question.name.toLowerCase().replace(/\.$/, '');
      const values = lookup(name);
      if (values === undefined || values.length === 0) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question.type === Packet.TYPE.TXT) {
        for (const data of values) {
          const record = new Packet.Resource(question.name, Packet.TYPE.TXT, Packet.CLASS.IN, 1);
          record.data = data;
          response.answers.push(record);
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) throw new Error('the DNS server did not listen');
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => {
      const key = name.toLowerCase();
      if (values.length === 0) published.delete(key);
      else published.set(key, values);
    },
    failAll: (fail) => {
      failing = fail;
    },
    close: async () => {
      await server.close();
    },
  };
}

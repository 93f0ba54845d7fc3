import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SigningKey } from '../../../src/sealing/types.js';
import { certificateSha256 } from '../../../src/sealing/signing/verify-pdf.js';

const run = promisify(execFile);

/** A PKCS#12 test key: its bytes and password, its file, and its certificate. */
export interface TestKey extends SigningKey {
  /** The `.p12` file. */
  path: string;
  /** The certificate alone, PEM. */
  certificatePath: string;
  /** Hex SHA-256 of the certificate's DER, as `verifyPdfSignatures` reports it. */
  certificateSha256: string;
}

/** Test certificates made with the `openssl` command line, in a temporary directory. */
export interface TestPki {
  dir: string;
  /** The test CA's certificate (PEM), for `openssl cms -verify -CAfile` and `openssl ts -verify -CAfile`. */
  caCertificatePath: string;
  /** RSA-2048, issued by the test CA; its P12 carries the CA certificate too. */
  signer: TestKey;
  /** EC P-256, self-signed. */
  selfSigned: TestKey;
  /** Issued by the test CA, valid only in 2020. */
  expired: TestKey;
  /** Issued by the test CA, valid only from 2099. */
  notYetValid: TestKey;
  /** The CA-issued signer's key in a `-legacy` P12 (RC2/3DES), as older tools write them. */
  legacy: TestKey;
  /** The timestamp authority's certificate (extendedKeyUsage critical timeStamping), issued by the test CA. */
  tsaCertificatePath: string;
  /** The OpenSSL configuration holding the `openssl ts -reply` section. */
  configPath: string;
}

/** A loopback RFC 3161 timestamp authority. */
export interface TestTsa {
  url: string;
  /** The timestamp queries received (DER `TimeStampReq`), in order. */
  requests: Uint8Array[];
  /** While true, every request is answered `500`. */
  fail: boolean;
  close(): Promise<void>;
}

const PASSWORD = 'test-p12-password';
/**
 * Valid from a day ago, so a signing time taken before the PKI was made (a test's `new Date()` at module load)
 * is inside it, for two years.
 */
const CURRENT = { from: opensslTime(Date.now() - 86_400_000), to: opensslTime(Date.now() + 2 * 365 * 86_400_000) };
let cached: Promise<TestPki> | undefined;

/**
 * The test PKI, generated once per process (a few seconds of `openssl`).
 * @example
 * const pki = await createTestPki();
 * const sealed = await signPdf(pdf, { key: pki.signer, signingTime: new Date(), reason: 'test' });
 */
export function createTestPki(): Promise<TestPki> {
  cached ??= generateTestPki();
  return cached;
}

/**
 * Starts an RFC 3161 timestamp authority on 127.0.0.1 that answers each query with `openssl ts -reply`, signed by
 * the test PKI's TSA certificate (or `pki`'s, e.g. `startLtvPki()`); `{ fail: true }` (or setting `fail` later)
 * makes it answer `500`.
 * @example
 * const tsa = await startTestTsa();
 * try { await signPdf(pdf, { ...options, tsaUrl: tsa.url }) } finally { await tsa.close() }
 */
export async function startTestTsa(options: { fail?: boolean; pki?: Pick<TestPki, 'dir' | 'configPath'> } = {}): Promise<TestTsa> {
  const pki = options.pki ?? (await createTestPki());
  let counter = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const query = Buffer.concat(chunks);
      tsa.requests.push(new Uint8Array(query));
      if (tsa.fail || request.method !== 'POST') {
        response.writeHead(500).end();
        return;
      }
      const base = join(pki.dir, `tsa-${process.pid}-${++counter}`);
      reply(pki, query, base).then(
        (token) => response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(token),
        (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const tsa: TestTsa = {
    url: `http://127.0.0.1:${port}/tsa`,
    requests: [],
    fail: options.fail ?? false,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return tsa;
}

async function reply(pki: Pick<TestPki, 'dir' | 'configPath'>, query: Buffer, base: string): Promise<Buffer> {
  await writeFile(`${base}.tsq`, query);
  try {
    const files = ['-queryfile', `${base}.tsq`, '-out', `${base}.tsr`];
    await openssl(pki.dir, ['ts', '-reply', '-config', pki.configPath, ...files]);
    return await readFile(`${base}.tsr`);
  } finally {
    await rm(`${base}.tsq`, { force: true });
    await rm(`${base}.tsr`, { force: true });
  }
}

async function generateTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-test-pki-'));
  const configPath = join(dir, 'openssl.cnf');
  await writeFile(configPath, opensslConfig(dir));
  await writeFile(join(dir, 'index.txt'), '');
  await writeFile(join(dir, 'ca.serial'), '1000\n');
  await writeFile(join(dir, 'tsa.serial'), '01\n');
  const sh = (...args: string[]) => openssl(dir, args);

  await sh('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '3650',
    '-subj', '/O=Signet Test/CN=Signet Test CA', '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const issue = async (name: string, subject: string, extensions: string, validity = CURRENT, selfSign = false) => {
    const key = name === 'self' ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] : ['-newkey', 'rsa:2048'];
    await sh('req', ...key, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    const signedBy = selfSign ? ['-selfsign', '-keyfile', `${name}.key`] : [];
    await sh('ca', '-batch', '-notext', '-config', configPath, '-extensions', extensions, '-in', `${name}.csr`,
      '-out', `${name}.crt`, ...signedBy, '-startdate', validity.from, '-enddate', validity.to);
  };
  await issue('signer', '/O=Signet Test/CN=Signet Test Signer', 'signer_ext');
  await issue('expired', '/O=Signet Test/CN=Signet Expired Signer', 'signer_ext',
    { from: '20200101000000Z', to: '20201231000000Z' });
  await issue('not-yet-valid', '/O=Signet Test/CN=Signet Future Signer', 'signer_ext',
    { from: '20990101000000Z', to: '20991231000000Z' });
  await issue('tsa', '/O=Signet Test/CN=Signet Test TSA', 'tsa_ext');
  await issue('self', '/O=Signet Test/CN=Signet Self-Signed', 'signer_ext', CURRENT, true);

  const pack = async (name: string, key: string, certificate: string, extra: string[] = []): Promise<TestKey> => {
    const path = join(dir, `${name}.p12`);
    await sh('pkcs12', '-export', '-inkey', key, '-in', certificate, '-out', path, '-passout', `pass:${PASSWORD}`,
      ...extra);
    const certificatePath = join(dir, certificate);
    const der = new X509Certificate(await readFile(certificatePath)).raw;
    return {
      p12: new Uint8Array(await readFile(path)),
      password: PASSWORD,
      path,
      certificatePath,
      certificateSha256: certificateSha256(der),
    };
  };
  return {
    dir,
    caCertificatePath: join(dir, 'ca.crt'),
    signer: await pack('signer', 'signer.key', 'signer.crt', ['-certfile', 'ca.crt']),
    selfSigned: await pack('self-signed', 'self.key', 'self.crt'),
    expired: await pack('expired', 'expired.key', 'expired.crt'),
    notYetValid: await pack('not-yet-valid', 'not-yet-valid.key', 'not-yet-valid.crt'),
    legacy: await pack('legacy', 'signer.key', 'signer.crt', ['-certfile', 'ca.crt', '-legacy']),
    tsaCertificatePath: join(dir, 'tsa.crt'),
    configPath,
  };
}

/** `YYYYMMDDHHMMSSZ`, as `openssl ca -startdate` takes it. */
function opensslTime(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').replace(/\.\d{3}/, '');
}

async function openssl(cwd: string, args: string[]): Promise<void> {
  await run('openssl', args, { cwd });
}

function opensslConfig(dir: string): string {
  return `# Signet test PKI (generated)
dir = ${dir}

[ca]
default_ca = test_ca

[test_ca]
database = $dir/index.txt
new_certs_dir = $dir
serial = $dir/ca.serial
certificate = $dir/ca.crt
private_key = $dir/ca.key
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none

[policy_any]
organizationName = optional
commonName = supplied

[signer_ext]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid

[tsa_ext]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid

[tsa]
default_tsa = tsa_config

[tsa_config]
${tsaSettings('ca.crt')}`;
}

/**
 * The `[tsa_config]` settings of a test timestamp authority (`openssl ts -reply`) whose files are in the config's
 * `$dir`, with `certs` the chain it includes in its tokens: shared by this PKI and the long-term validation PKI.
 */
export function tsaSettings(certs: string): string {
  return `serial = \$dir/tsa.serial
crypto_device = builtin
signer_cert = \$dir/tsa.crt
certs = \$dir/${certs}
signer_key = \$dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;
}

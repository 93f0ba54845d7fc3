/**
 * A PKI for the B-LT and B-LTA tests, made with the `openssl` command line: root → intermediate → signing
 * certificate whose Authority Information Access names an `openssl ocsp` responder on loopback, an intermediate
 * and a timestamp authority whose CRL distribution point is a loopback HTTP server of this module, and a second
 * signing certificate the intermediate has revoked.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { certificateSha256 } from '../../../src/sealing/signing/verify-pdf.js';
import { tsaSettings, type TestKey } from './test-pki.js';

const run = promisify(execFile);
const PASSWORD = 'test-p12-password';

export interface LtvPki {
  dir: string;
  /** The root's certificate (PEM): the trust anchor of `openssl cms/ts/ocsp -verify -CAfile`. */
  rootPath: string;
  /** The intermediate's certificate (PEM). */
  intermediatePath: string;
  /** Issued by the intermediate, its OCSP responder on loopback; its P12 carries the intermediate and the root. */
  signer: TestKey;
  /** Like `signer`, but revoked by the intermediate. */
  revoked: TestKey;
  /** The timestamp authority's certificate, issued by the root, its CRL on loopback. */
  tsaCertificatePath: string;
  /** The OpenSSL configuration whose `[tsa]` section `startTestTsa({ pki })` answers with. */
  configPath: string;
  /** The `openssl ocsp` responder of the intermediate (`http://127.0.0.1:<port>/`). */
  ocsp: { url: string; stop(): Promise<void>; start(): Promise<void> };
  /** The CRL server: `/root.crl`; while `fail` is true it answers 503. */
  crls: { url: string; fail: boolean; requests: () => number };
  close(): Promise<void>;
}

/**
 * Makes the PKI and starts its OCSP responder and CRL server; `close()` stops both.
 * @example const pki = await startLtvPki(); try { … } finally { await pki.close() }
 */
export async function startLtvPki(): Promise<LtvPki> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-ltv-pki-'));
  const sh = (...args: string[]) => run('openssl', args, { cwd: dir });
  let crlRequests = 0;
  const crls = { url: '', fail: false, requests: () => crlRequests };
  const crlServer = createServer((request, response) => {
    crlRequests++;
    if (crls.fail || request.url !== '/root.crl') return void response.writeHead(crls.fail ? 503 : 404).end();
    readFile(join(dir, 'root.crl')).then(
      (body) => response.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  await listen(crlServer);
  crls.url = `http://127.0.0.1:${(crlServer.address() as AddressInfo).port}/root.crl`;
  const ocspPort = await freePort();
  const ocspUrl = `http://127.0.0.1:${ocspPort}/`;

  const configPath = join(dir, 'openssl.cnf');
  await writeFile(configPath, config(dir, crls.url, ocspUrl));
  for (const ca of ['root', 'int']) {
    await mkdir(join(dir, ca));
    await writeFile(join(dir, ca, 'index.txt'), '');
    await writeFile(join(dir, ca, 'serial'), ca === 'root' ? '1000\n' : '2000\n');
    await writeFile(join(dir, ca, 'crlnumber'), '01\n');
  }
  await writeFile(join(dir, 'tsa.serial'), '01\n');
  const validity = ['-startdate', opensslTime(Date.now() - 86_400_000), '-enddate', opensslTime(Date.now() + 2 * 365 * 86_400_000)];
  await sh('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.csr', '-subj', '/O=Signet LTV Test/CN=Signet LTV Root');
  await sh('ca', '-batch', '-notext', '-config', configPath, '-name', 'root_ca', '-selfsign', '-keyfile', 'root.key',
    '-extensions', 'root_ext', '-in', 'root.csr', '-out', 'root.crt', ...validity);
  const issue = async (name: string, subject: string, ca: string, extensions: string) => {
    await sh('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    await sh('ca', '-batch', '-notext', '-config', configPath, '-name', ca, '-extensions', extensions, '-in', `${name}.csr`,
      '-out', `${name}.crt`, ...validity);
  };
  await issue('int', '/O=Signet LTV Test/CN=Signet LTV Intermediate', 'root_ca', 'int_ext');
  await issue('tsa', '/O=Signet LTV Test/CN=Signet LTV TSA', 'root_ca', 'tsa_ext');
  await issue('signer', '/O=Signet LTV Test/CN=Signet LTV Signer', 'int_ca', 'signer_ext');
  await issue('revoked', '/O=Signet LTV Test/CN=Signet LTV Revoked Signer', 'int_ca', 'signer_ext');
  await sh('ca', '-config', configPath, '-name', 'int_ca', '-revoke', 'revoked.crt', '-crl_reason', 'keyCompromise');
  await sh('ca', '-config', configPath, '-name', 'root_ca', '-gencrl', '-out', 'root.crl.pem');
  await sh('crl', '-in', 'root.crl.pem', '-outform', 'DER', '-out', 'root.crl');
  await writeFile(join(dir, 'chain.pem'), Buffer.concat([await readFile(join(dir, 'int.crt')), await readFile(join(dir, 'root.crt'))]));

  const pack = async (name: string): Promise<TestKey> => {
    const path = join(dir, `${name}.p12`);
    await sh('pkcs12', '-export', '-inkey', `${name}.key`, '-in', `${name}.crt`, '-certfile', 'chain.pem', '-out', path,
      '-passout', `pass:${PASSWORD}`);
    const certificatePath = join(dir, `${name}.crt`);
    const der = new X509Certificate(await readFile(certificatePath)).raw;
    return { p12: new Uint8Array(await readFile(path)), password: PASSWORD, path, certificatePath, certificateSha256: certificateSha256(der) };
  };

  let responder: ChildProcess | undefined;
  const ocsp = {
    url: ocspUrl,
    async start() {
      const child = spawn('openssl', ['ocsp', '-index', join(dir, 'int', 'index.txt'), '-port', String(ocspPort),
        '-rsigner', join(dir, 'int.crt'), '-rkey', join(dir, 'int.key'), '-CA', join(dir, 'int.crt'), '-ignore_err'],
      { stdio: ['ignore', 'ignore', 'pipe'] });
      responder = child;
      await listening(child, ocspPort);
    },
    async stop() {
      const child = responder;
      responder = undefined;
      if (child === undefined || child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
  await ocsp.start();
  return {
    dir,
    rootPath: join(dir, 'root.crt'),
    intermediatePath: join(dir, 'int.crt'),
    signer: await pack('signer'),
    revoked: await pack('revoked'),
    tsaCertificatePath: join(dir, 'tsa.crt'),
    configPath,
    ocsp,
    crls,
    async close() {
      await ocsp.stop();
      crlServer.closeAllConnections();
      await new Promise<void>((resolve) => crlServer.close(() => resolve()));
    },
  };
}

async function listen(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}

/** A port free now: the responder binds it next (the window for another process to take it is tiny). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Resolves once `openssl ocsp` says it accepts connections. Not by connecting to it: the responder serves one
 * connection at a time, and a probe that connects and sends nothing would hold it.
 */
async function listening(child: ChildProcess, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('waiting for OCSP client connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`openssl ocsp on port ${port} exited (${code}): ${said}`)));
  });
}

function opensslTime(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').replace(/\.\d{3}/, '');
}

function config(dir: string, crlUrl: string, ocspUrl: string): string {
  const ca = (name: string, certificate: string) => `
[${name}_ca]
dir = ${dir}
database = $dir/${name}/index.txt
new_certs_dir = $dir/${name}
serial = $dir/${name}/serial
crlnumber = $dir/${name}/crlnumber
certificate = $dir/${certificate}.crt
private_key = $dir/${certificate}.key
default_md = sha256
default_crl_days = 30
policy = policy_any
unique_subject = no
copy_extensions = none
`;
  return `# Signet LTV test PKI (generated)
[ca]
default_ca = root_ca
${ca('root', 'root')}
${ca('int', 'int')}
[policy_any]
organizationName = optional
commonName = supplied

[root_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[int_ext]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${crlUrl}

[signer_ext]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:${ocspUrl}

[tsa_ext]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${crlUrl}

[tsa]
default_tsa = tsa_config

[tsa_config]
dir = ${dir}
${tsaSettings('root.crt')}`;
}

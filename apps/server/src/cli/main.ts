#!/usr/bin/env node
/**
 * The `signet` command line (docs/api.md, "Command line"): `pnpm signet <command>` (relative paths from the caller's
 * directory, `callerPath`). Every command honours
 * DATABASE_URL; a failure exits 1 with one line on stderr.
 */
import { basename } from 'node:path';
import { Command, Option } from 'commander';
import { loadConfig } from '../config.js';
import { createDocument } from '../documents/create-document.js';
import { documentMetadata } from '../documents/present.js';
import { signersOf } from '../documents/signers.js';
import type { DocumentRecord } from '../storage/types.js';
import { createApiKeyRecord, seedDemo } from '../documents/seed.js';
import { ApiError } from '../errors.js';
import type { Scope } from '@signet/contract';
import { parseIsoTime, parseOrigins, parseScopes, parseWholeNumber } from './options.js';
import { CliError, print, readInput, withStorage } from './common.js';
import { registerSealingCommands } from './sealing-commands.js';
import { registerWebhookCommands } from './webhook-commands.js';
import { registerDraftCommands } from './draft-commands.js';
import { registerEraseCommand, registerLifecycleCommands } from './lifecycle-commands.js';
import { registerRemindCommand } from './mail-commands.js';
import { registerOperationsCommands } from './operations-commands.js';
import { registerOrgCommands } from './org-commands.js';
import { registerTemplateCommands } from './template-commands.js';
import { revokeApiKey } from '../storage/queries/api-keys.js';
import { ensureOrganization, findOrganizationBySlug } from '../storage/queries/organizations.js';

const program = new Command()
  .name('signet')
  .description('Signet: the signing API server and its administration')
  .configureOutput({ outputError: (text, write) => write(`signet: ${text.replace(/^error: /, '')}`) });

program
  .command('serve')
  .description('start the API server')
  .option('--port <n>', 'port to listen on (default: PORT or 3000)', parseWholeNumber(0, 65535))
  .action(async (options: { port?: number }) => {
    const { startServer } = await import('../server.js');
    const config = loadConfig(options.port === undefined ? process.env : { ...process.env, PORT: String(options.port) });
    const server = await startServer({ config, handleSignals: true });
    process.stderr.write(`Signet API listening on ${server.url} (reference: ${server.url}/docs)\n`);
  });

program
  .command('migrate')
  .description('create or upgrade the database schema')
  .action(() =>
    withStorage(async (storage) => {
      print(`Database migrated (${storage.engine}).`);
    }),
  );

interface KeyCreateOptions {
  org: string;
  createOrg?: boolean;
  orgName?: string;
  kind: 'pk' | 'sk';
  scopes?: Scope[];
  expiresAt?: string;
  origins?: string[];
  rateLimit?: number;
  json?: boolean;
}

const keys = program.command('keys').description('create and revoke API keys');

keys
  .command('create')
  .description('create an API key of an organization (with --create-org, a new one); the key is printed once')
  .requiredOption('--org <slug>', 'organization slug (the seeded demo\'s is demo)')
  .option('--create-org', 'create the organization when there is none of that slug')
  .option('--org-name <name>', 'with --create-org: its name (default: the slug)')
  .addOption(new Option('--kind <kind>', 'pk (public, browsers) or sk (secret, servers)').choices(['pk', 'sk']).makeOptionMandatory())
  .option('--scopes <list>', 'comma-separated scopes (pk default: documents:read,documents:submit; sk: all)', parseScopes)
  .option('--expires-at <iso>', 'expiry time, ISO 8601', parseIsoTime)
  .option('--origins <list>', 'pk only: comma-separated origins it may be used from (default: any)', parseOrigins)
  .option('--rate-limit <n>', 'requests per minute (default 600)', parseWholeNumber(1, 1_000_000_000))
  .option('--json', 'print one JSON object')
  .action(
    (options: KeyCreateOptions) =>
      withStorage(async (storage) => {
        if (options.kind === 'sk' && options.origins?.length) throw new CliError('--origins applies to pk keys only');
        if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(options.org)) throw new CliError('--org must be a slug: lowercase letters, digits and -');
        if (options.orgName !== undefined && !options.createOrg) throw new CliError('--org-name goes with --create-org');
        // A misspelt slug must not quietly make an empty organization whose keys see none of the documents.
        const organization = options.createOrg
          ? await ensureOrganization(storage.db.query, options.org, options.orgName?.trim() || options.org)
          : await findOrganizationBySlug(storage.db.query, options.org);
        if (!organization) throw new CliError(`no organization ${options.org}: add --create-org to create it`);
        const created = await createApiKeyRecord(storage, {
          organizationId: organization.id,
          kind: options.kind,
          scopes: options.scopes,
          expiresAt: options.expiresAt ?? null,
          origins: options.origins,
          rateLimit: options.rateLimit,
        });
        if (options.json) return print(created);
        print(
          [
            `Created ${created.kind} key ${created.id} for organization ${organization.slug} (${organization.id})`,
            `  Key:      ${created.key}`,
            `  Scopes:   ${created.scopes.join(', ')}`,
            `  Expires:  ${created.expiresAt ?? 'never'}`,
            ...(options.origins?.length ? [`  Origins:  ${options.origins.join(', ')}`] : []),
            'Store the key now: it will not be shown again.',
          ].join('\n'),
        );
      }),
  );

keys
  .command('revoke')
  .description('revoke an API key by its id (key_…), and the document URLs it obtained (within 2 s on running servers)')
  .argument('<keyId>', 'the key record id')
  .action((keyId: string) =>
    withStorage(async (storage) => {
      if (!(await revokeApiKey(storage.db.query, keyId, new Date().toISOString()))) throw new CliError(`no API key ${keyId}`);
      print(`Revoked ${keyId}: it and the document URLs it obtained are refused within 2 seconds.`);
    }),
  );

interface DocumentCreateOptions {
  org: string;
  pdf: string;
  fields?: string;
  signers?: string;
  signingOrder?: string;
  draft?: boolean;
  expiresAt?: string;
  tags?: boolean;
  formFields?: 'import' | 'keep';
  json?: boolean;
}

const documents = program.command('documents').description('manage documents');

documents
  .command('create')
  .description("create a document from a PDF and a JSON file of field definitions, in an existing organization")
  .requiredOption('--org <slug>', 'organization slug')
  .requiredOption('--pdf <file>', 'the PDF')
  .option('--fields <file>', 'JSON array of field definitions (required unless --draft)')
  .option('--signers <file>', 'JSON array of signers [{ id, name, email?, order? }]; each field then names its signerId')
  .option('--signing-order <order>', 'with --signers: parallel (default) or sequential')
  .option('--draft', 'create a draft: not signable until `signet documents send`; --fields may be left out')
  .option('--expires-at <iso>', 'when it expires unless completed: ISO 8601, in the future, at most a year ahead')
  .option('--tags', 'turn the text tags in the PDF into fields (docs/text-tags.md); --fields may then be left out')
  .addOption(new Option('--form-fields <mode>', "import: turn the PDF's form fields into fields (docs/form-fields.md)").choices(['import', 'keep']))
  .option('--json', 'print the document metadata as JSON')
  .action((options: DocumentCreateOptions) =>
    withStorage(async (storage) => {
      const organization = await findOrganizationBySlug(storage.db.query, options.org);
      if (!organization) throw new CliError(`no organization ${options.org} (create one with: signet keys create --org ${options.org} --create-org …)`);
      // One after the other: when both are unreadable, the error always names --pdf (read at once, whichever failed
      // first was reported, and the CLI's test raced).
      const bytes = await readInput('--pdf', options.pdf);
      if (options.fields === undefined && !options.draft && !options.tags && options.formFields !== 'import') {
        throw new CliError("required option '--fields <file>' not specified");
      }
      const fields = options.fields === undefined ? undefined : await readInput('--fields', options.fields);
      const signers = options.signers === undefined ? undefined : await readInput('--signers', options.signers);
      const config = loadConfig();
      const document = await createDocument(storage, {
        organizationId: organization.id,
        filename: basename(options.pdf),
        bytes,
        fields: fields === undefined ? undefined : new TextDecoder().decode(fields),
        draft: options.draft === true,
        tags: options.tags === true,
        ...(options.formFields ? { formFields: options.formFields } : {}),
        ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }),
        ...(signers ? { signers: new TextDecoder().decode(signers) } : {}),
        ...(options.signingOrder ? { signingOrder: options.signingOrder } : {}),
        maxPdfBytes: config.maxPdfBytes,
        // As the server refuses them: an e-mailed code needs a server that sends mail (docs/signer-auth.md).
        mailConfigured: config.mail !== undefined,
      });
      if (options.json) return print({ ...documentMetadata(document), ...signersPart(document) });
      const who = !document.implicitSigner ? `, ${document.signers.length} signers (${document.signingOrder})` : '';
      const draft = document.status === 'draft' ? ` A draft: send it with signet documents send ${document.id}` : '';
      print(`Created ${document.id}: ${document.filename}, ${document.pageCount} pages, ${document.fields.length} fields${who}.${draft}`);
    }),
  );

program
  .command('seed')
  .description('create the demo organization, sample documents with fields of every type, a pk and an sk key')
  .option('--json', 'print the result as JSON')
  .action((options: { json?: boolean }) =>
    withStorage(async (storage) => {
      const result = await seedDemo(storage);
      if (options.json) return print(result);
      print(
        [
          `Organization ${result.organization.slug} (${result.organization.id}): ${result.organization.name}`,
          ...result.documents.map((d) => `  Document ${d.id}  ${d.filename} (${d.pageCount} page${d.pageCount === 1 ? '' : 's'})`),
          `  pk key ${result.keys.pk.id}: ${result.keys.pk.key}`,
          `  sk key ${result.keys.sk.id}: ${result.keys.sk.key}`,
          'Store the keys now: they will not be shown again.',
        ].join('\n'),
      );
    }),
  );

registerSealingCommands(program, documents);
registerWebhookCommands(program);
registerDraftCommands(program, documents);
registerLifecycleCommands(documents);
registerEraseCommand(documents);
registerRemindCommand(documents);
registerTemplateCommands(program);
registerOperationsCommands(program);
registerOrgCommands(program);

function describeFailure(error: unknown): string {
  if (error instanceof ApiError && error.details?.field) return `${error.details.field}: ${error.details.reason}`;
  if (error instanceof Error) return error.message.split('\n')[0]!;
  return String(error);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`signet: ${describeFailure(error)}\n`);
  process.exit(1);
}

/** A new document's signers and their order, for `documents create --json`; nothing without signers. */
function signersPart(document: DocumentRecord) {
  return !document.implicitSigner ? { signingOrder: document.signingOrder, signers: signersOf(document, []) } : {};
}

/**
 * The template commands of `signet` (docs/templates.md): create, list, show, update and delete templates, make
 * documents from them, and mint or revoke builder session keys for them. They work on the store directly, as
 * `documents` does.
 */
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import {
  BUILDER_SESSION_TTL_SECONDS,
  CreateTemplateDocumentRequestSchema,
  PAGE_LIMIT,
  UpdateTemplateRequestSchema,
} from '@signet/contract';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { documentMetadata } from '../documents/present.js';
import { issueDetails } from '../http/validation.js';
import type { IfMatch } from '../http/if-match.js';
import { revokeSessionKey } from '../storage/queries/api-keys.js';
import { findOrganizationBySlug } from '../storage/queries/organizations.js';
import { findTemplateById, listTemplates } from '../storage/queries/templates.js';
import type { Storage, TemplateRecord } from '../storage/types.js';
import { createTemplate, deleteTemplate, updateTemplate } from '../templates/templates.js';
import { createDocumentFromTemplate } from '../templates/template-documents.js';
import { createTemplateBuilderSession, presentTemplateBuilderSession } from '../templates/template-sessions.js';
import { templateSummary } from '../templates/present.js';
import { CliError, print, readInput, withStorage } from './common.js';
import { ApiError } from '../errors.js';
import { resolveSecret } from '../secret.js';
import { listBulkRows } from '../storage/queries/bulk-jobs.js';
import { presentBulkJob, presentBulkRow, startBulkJob } from '../templates/bulk/bulk-jobs.js';
import { CLI_STARTER, runBulkJobHere } from '../templates/bulk/run-here.js';
import { parseOrigins, parseWholeNumber } from './options.js';

async function templateOf(storage: Storage, id: string): Promise<TemplateRecord> {
  const template = /^tpl_[A-Za-z0-9]{20,64}$/.test(id) ? await findTemplateById(storage.db.query, id) : null;
  if (!template) throw new CliError(`no template ${id}`);
  return template;
}

/** A JSON file named by an option, parsed; a failure names the option. */
async function readJson(option: string, path: string): Promise<unknown> {
  const text = new TextDecoder().decode(await readInput(option, path));
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${option} ${path} is not JSON`);
  }
}

/** A value checked by a contract schema; a failure names the option and the member. */
function checked<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, option: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { field, reason } = issueDetails(result.error, []);
  throw new CliError(`${option}: ${field ? `${field} ` : ''}${reason}`);
}

function describe(template: TemplateRecord): string {
  const roles = template.roles ? `, roles ${template.roles.map((role) => role.id).join(', ')} (${template.signingOrder})` : '';
  return `${template.id}: ${template.name} (${template.filename}, ${template.pageCount} pages, ${template.fields.length} fields${roles}), version ${template.version}`;
}

interface CreateOptions {
  org: string;
  pdf: string;
  name?: string;
  fields?: string;
  roles?: string;
  signingOrder?: string;
  expiresInDays?: number;
  tags?: boolean;
  formFields?: 'import' | 'keep';
  json?: boolean;
}

/** `templates create|list|show|update|delete|use` and `templates builder-sessions create|revoke`. */
export function registerTemplateCommands(program: Command): void {
  const templates = program.command('templates').description('prepare documents once and send them many times');

  templates
    .command('create')
    .description('create a template from a PDF, its fields and its roles, in an existing organization')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--pdf <file>', 'the PDF')
    .option('--name <name>', 'what it is called (default: the file name)')
    .option('--fields <file>', 'JSON array of field definitions; each names its role as signerId')
    .option('--roles <file>', 'JSON array of roles [{ id, name, order? }] (default: one signer, not named in advance)')
    .option('--signing-order <order>', 'with --roles: parallel (default) or sequential')
    .option('--expires-in-days <n>', 'documents made from it expire this many days after', parseWholeNumber(1, 365))
    .option('--tags', 'turn the text tags in the PDF into fields (docs/text-tags.md)')
    .addOption(new Option('--form-fields <mode>', "import: turn the PDF's form fields into fields (docs/form-fields.md)").choices(['import', 'keep']))
    .option('--json', 'print the template as JSON')
    .action((options: CreateOptions) =>
      withStorage(async (storage) => {
        const organization = await findOrganizationBySlug(storage.db.query, options.org);
        if (!organization) throw new CliError(`no organization ${options.org}`);
        const bytes = await readInput('--pdf', options.pdf);
        const fields = options.fields === undefined ? undefined : new TextDecoder().decode(await readInput('--fields', options.fields));
        const roles = options.roles === undefined ? undefined : new TextDecoder().decode(await readInput('--roles', options.roles));
        const template = await createTemplate(storage, {
          organizationId: organization.id,
          bytes,
          filename: basename(options.pdf),
          name: options.name,
          fields,
          roles,
          signingOrder: options.signingOrder,
          expiresInDays: options.expiresInDays,
          tags: options.tags === true,
          formFields: options.formFields,
          maxPdfBytes: loadConfig().maxPdfBytes,
          logger: createLogger('warn', process.stderr),
        });
        if (options.json) return print(template);
        print(`Created template ${describe(template)}.`);
      }),
    );

  templates
    .command('list')
    .description("an organization's templates, newest first")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--limit <n>', `how many (default ${PAGE_LIMIT.default})`, parseWholeNumber(PAGE_LIMIT.min, PAGE_LIMIT.max))
    .option('--json', 'print a JSON array')
    .action((options: { org: string; limit?: number; json?: boolean }) =>
      withStorage(async (storage) => {
        const organization = await findOrganizationBySlug(storage.db.query, options.org);
        if (!organization) throw new CliError(`no organization ${options.org}`);
        const rows = await listTemplates(storage.db.query, organization.id, { limit: options.limit ?? PAGE_LIMIT.default });
        if (options.json) return print(rows.map(templateSummary));
        print(rows.length === 0 ? 'No templates.' : rows.map(describe).join('\n'));
      }),
    );

  templates
    .command('show')
    .description('a template with its fields and roles, as JSON')
    .argument('<templateId>')
    .action((templateId: string) => withStorage(async (storage) => print(await templateOf(storage, templateId))));

  templates
    .command('update')
    .description("replace a template's content with a JSON file { name?, fields, roles?, signingOrder?, expiresInDays? }: a new version")
    .argument('<templateId>')
    .requiredOption('--content <file>', 'the JSON file')
    .option('--version <n>', 'the version it was made on (default: whatever is current)', parseWholeNumber(1, 2 ** 31 - 1))
    .option('--json', 'print the template as JSON')
    .action((templateId: string, options: { content: string; version?: number; json?: boolean }) =>
      withStorage(async (storage) => {
        const template = await templateOf(storage, templateId);
        const change = checked(UpdateTemplateRequestSchema, '--content', await readJson('--content', options.content));
        const expected: IfMatch = options.version === undefined ? { any: true } : { any: false, tags: [`"${options.version}"`] };
        const saved = await updateTemplate(storage, template.organizationId, template.id, change, expected, new Date().toISOString());
        if (options.json) return print(saved);
        print(`Updated template ${describe(saved)}.`);
      }),
    );

  templates
    .command('delete')
    .description('delete a template and its PDF; documents made from it are kept')
    .argument('<templateId>')
    .action((templateId: string) =>
      withStorage(async (storage) => {
        const template = await templateOf(storage, templateId);
        await deleteTemplate(storage, template.organizationId, template.id, new Date().toISOString());
        print(`Deleted template ${template.id}.`);
      }),
    );

  templates
    .command('use')
    .description('make a document from a template: a JSON file { signers?: [{ role, name, email? }], values?, signingOrder?, expiresAt?, draft? }')
    .argument('<templateId>')
    .option('--request <file>', 'the JSON file (default: {}, for a template without roles)')
    .option('--json', 'print the document metadata as JSON')
    .action((templateId: string, options: { request?: string; json?: boolean }) =>
      withStorage(async (storage) => {
        const template = await templateOf(storage, templateId);
        const raw = options.request === undefined ? {} : await readJson('--request', options.request);
        const request = checked(CreateTemplateDocumentRequestSchema, '--request', raw);
        const document = await createDocumentFromTemplate(storage, template.organizationId, template.id, request, new Date());
        if (options.json) return print(documentMetadata(document));
        print(`Created ${document.id} from template ${template.id} version ${template.version}: ${document.filename}, ${document.fields.length} fields.`);
      }),
    );

  templates
    .command('bulk')
    .description('make one document per row of a CSV (docs/templates.md, "Bulk"); waits for the job and prints its summary')
    .argument('<templateId>')
    .requiredOption('--csv <file>', 'the CSV: a header row (key, <role>.name, <role>.email, values.<fieldId>), then one row per document')
    .option('--no-wait', 'start the job and print it; a running server makes the documents')
    .option('--json', 'print the job (with its failed rows) as JSON')
    .action((templateId: string, options: { csv: string; wait: boolean; json?: boolean }) =>
      withStorage(async (storage) => {
        const template = await templateOf(storage, templateId);
        const csv = new TextDecoder().decode(await readInput('--csv', options.csv));
        const config = loadConfig();
        let job = await startBulkJob(storage, {
          organizationId: template.organizationId,
          apiKeyId: CLI_STARTER,
          templateId: template.id,
          body: { csv },
          now: new Date(),
          mailConfigured: config.mail !== undefined,
        }).catch((error: unknown) => {
          if (error instanceof ApiError) throw new CliError(`--csv: ${String(error.details?.field ?? '')}: ${String(error.details?.reason ?? error.message)}`);
          throw error;
        });
        if (options.wait) {
          job = await runBulkJobHere(storage, { id: job.id, secret: await resolveSecret(config), logger: createLogger('warn', process.stderr) });
        }
        const failed = (await listBulkRows(storage.db.query, job.id, { afterIndex: -1, limit: job.total, status: 'failed' })).map((row) => presentBulkRow(row));
        if (options.json) return print({ ...presentBulkJob(job), failedRows: failed });
        const lines = [`Bulk job ${job.id} of template ${template.id} version ${job.templateVersion}: ${job.status}, ${job.total} rows, ${job.created} created, ${job.failed} failed.`];
        for (const row of failed) lines.push(`  row ${row.index} (${row.key}): ${row.error?.field}: ${row.error?.reason}`);
        print(lines.join('\n'));
      }),
    );

  const sessions = templates.command('builder-sessions').description("mint and revoke builder session keys for a template's author");
  sessions
    .command('create')
    .description('a pk key that may only read and edit this template; printed once')
    .argument('<templateId>')
    .option('--origins <list>', 'comma-separated origins it may be used from (default: any)', parseOrigins)
    .option(
      '--expires-in <seconds>',
      `lifetime in seconds (default ${BUILDER_SESSION_TTL_SECONDS.default})`,
      parseWholeNumber(BUILDER_SESSION_TTL_SECONDS.min, BUILDER_SESSION_TTL_SECONDS.max),
    )
    .option('--json', 'print one JSON object')
    .action((templateId: string, options: { origins?: string[]; expiresIn?: number; json?: boolean }) =>
      withStorage(async (storage) => {
        const template = await templateOf(storage, templateId);
        const session = await createTemplateBuilderSession(storage, template, {
          ...(options.origins ? { origins: options.origins } : {}),
          ...(options.expiresIn ? { expiresInSeconds: options.expiresIn } : {}),
        });
        if (options.json) return print(session);
        print([`Builder session ${session.id} of template ${template.id}, until ${session.expiresAt}`, `  Key: ${session.key}`, 'Store the key now: it will not be shown again.'].join('\n'));
      }),
    );
  sessions
    .command('revoke')
    .description('revoke a builder session key of a template')
    .argument('<templateId>')
    .argument('<keyId>')
    .action((templateId: string, keyId: string) =>
      withStorage(async (storage) => {
        const template = await templateOf(storage, templateId);
        const revoked = await revokeSessionKey(storage.db.query, template.id, keyId, new Date().toISOString(), { builder: true });
        if (!revoked) throw new CliError(`template ${template.id} has no builder session key ${keyId}`);
        print(`Revoked ${presentTemplateBuilderSession(revoked).id}.`);
      }),
    );
}

/**
 * The organization on the command line (docs/email.md, "Branding"): `org show` and `org set`, its name and the brand
 * colour of its hosted signing page, checked as `PATCH /organization` checks them. They work on the store directly,
 * as `keys` and `webhooks` do.
 */
import type { Command } from 'commander';
import { UpdateOrganizationRequestSchema, type OrganizationProfile } from '@signet/contract';
import { accentTheme } from '../routes/signing-page-theme.js';
import { findOrganizationBySlug, findOrganizationProfile, updateOrganizationProfile } from '../storage/queries/organizations.js';
import type { Storage } from '../storage/types.js';
import { CliError, print, withStorage } from './common.js';

/** The option each member of the request comes from, for a refusal that names what was typed. */
const OPTION_OF: Record<string, string> = { name: '--name', brandColor: '--brand-color' };

async function profileOf(storage: Storage, slug: string): Promise<OrganizationProfile> {
  const organization = await findOrganizationBySlug(storage.db.query, slug);
  const profile = organization && (await findOrganizationProfile(storage.db.query, organization.id));
  if (!profile) throw new CliError(`no organization ${slug}`);
  return profile;
}

function describe(slug: string, profile: OrganizationProfile): string {
  const theme = accentTheme(profile.brandColor);
  return [
    `Organization ${slug} (${profile.id}): ${profile.name}`,
    `  Brand colour: ${theme ? `${theme.accent} (text on it: ${theme.accentText})` : 'none (the default accent)'}`,
  ].join('\n');
}

interface SetOptions {
  org: string;
  name?: string;
  brandColor?: string;
  clearBrandColor?: boolean;
  json?: boolean;
}

/** Adds `org show|set` to the program. */
export function registerOrgCommands(program: Command): void {
  const org = program.command('org').description("an organization's name and the brand colour of its hosted signing page");

  org
    .command('show')
    .description('print the name and brand colour')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print { id, name, brandColor } as GET /organization answers')
    .action((options: { org: string; json?: boolean }) =>
      withStorage(async (storage) => {
        const profile = await profileOf(storage, options.org);
        print(options.json ? profile : describe(options.org, profile));
      }),
    );

  org
    .command('set')
    .description('change the name or the brand colour (#rrggbb) of the hosted signing page')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--name <name>', 'the name signers read (1-200 characters, one line)')
    .option('--brand-color <hex>', "the page's accent, # and six hex digits, such as '#0a7d4f'")
    .option('--clear-brand-color', 'back to the default accent')
    .option('--json', 'print { id, name, brandColor } as PATCH /organization answers')
    .action((options: SetOptions) =>
      withStorage(async (storage) => {
        if (options.brandColor !== undefined && options.clearBrandColor) throw new CliError('--brand-color and --clear-brand-color exclude each other');
        const request = {
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(options.brandColor === undefined ? {} : { brandColor: options.brandColor }),
          ...(options.clearBrandColor ? { brandColor: null } : {}),
        };
        if (Object.keys(request).length === 0) throw new CliError('nothing to change: give --name, --brand-color or --clear-brand-color');
        const parsed = UpdateOrganizationRequestSchema.safeParse(request);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const member = String(issue.path[0] ?? '');
          throw new CliError(`${OPTION_OF[member] ?? member} ${JSON.stringify(request[member as keyof typeof request])}: ${issue.message}`);
        }
        const { id } = await profileOf(storage, options.org);
        const updated = (await updateOrganizationProfile(storage.db.query, id, parsed.data))!;
        print(options.json ? updated : describe(options.org, updated));
      }),
    );
}

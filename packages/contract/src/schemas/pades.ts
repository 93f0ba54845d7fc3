import { z } from '../zod.js';
import { TimestampSchema } from './timestamp.js';

/**
 * PAdES baseline levels (ETSI EN 319 142-1), lowest first: B-B a signature; B-T with a trusted timestamp of it;
 * B-LT with the validation data of its chains in the file (DSS); B-LTA with a document timestamp over them.
 */
export const PADES_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export const PadesLevelSchema = z.enum(PADES_LEVELS).meta({ id: 'PadesLevel' });
export type PadesLevel = z.infer<typeof PadesLevelSchema>;

/**
 * A certificate's revocation status as the file's DSS records it: `good`, `revoked` or `unknown` from an OCSP
 * response or CRL whose signature verifies; `none` when the DSS holds nothing about it. A self-issued root has
 * none by nature.
 */
export const CertificateRevocationSchema = z
  .object({
    status: z.enum(['good', 'revoked', 'unknown', 'none']),
    source: z.enum(['ocsp', 'crl']).optional(),
    /** When the OCSP response was produced, or the CRL issued. */
    producedAt: TimestampSchema.optional(),
    revokedAt: TimestampSchema.optional(),
  })
  .meta({ id: 'CertificateRevocation' });

/** One certificate of a chain, the signer's or a timestamp authority's: leaf first. */
export const ChainCertificateSchema = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    /** Hex SHA-256 of its DER. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    notBefore: TimestampSchema,
    notAfter: TimestampSchema,
    revocation: CertificateRevocationSchema,
  })
  .meta({ id: 'ChainCertificate' });

/**
 * What the file's PAdES signature proves of itself, read from the file alone (nothing is fetched): the level it
 * reaches (null when its signature does not verify), its chain and its timestamp authority's with each
 * certificate's revocation status from the DSS, and the times of its timestamps.
 */
export const PadesReportSchema = z
  .object({
    level: PadesLevelSchema.nullable(),
    /** The claimed signing time (`/M`). */
    signingTime: TimestampSchema.optional(),
    /** The time the signature's timestamp token certifies (B-T and above). */
    signatureTimestamp: TimestampSchema.optional(),
    /** The time the last document timestamp certifies (B-LTA). */
    documentTimestamp: TimestampSchema.optional(),
    chain: z.array(ChainCertificateSchema),
    timestampChain: z.array(ChainCertificateSchema),
  })
  .meta({ id: 'PadesReport' });
export type PadesReport = z.infer<typeof PadesReportSchema>;

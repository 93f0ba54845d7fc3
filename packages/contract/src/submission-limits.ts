/** Limits of a submission's contents (docs/api.md, "Submit"). */
export const SUBMISSION_LIMITS = {
  maxTextLength: 10_000,
  maxImageBytes: 1024 * 1024,
  maxImageSide: 4096,
  positionTolerance: 0.001,
  maxFutureSkewMs: 5 * 60 * 1000,
} as const;

/** Longest reason a signer may give for declining. */
export const DECLINE_REASON_MAX_LENGTH = 1000;

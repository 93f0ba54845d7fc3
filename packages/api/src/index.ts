export { createBuilderClient, createSdkClient, createSigningClient, newIdempotencyKey } from './client.js';
export type { BuilderClient, DocumentPage, DocumentUpload, ListOptions, Page, SdkClient, SigningClient, SigningClientOptions, SubmitOptions, TemplateUpload } from './client.js';
export {
  ContractViolationError,
  RETRYABLE_STATUSES,
  SigningAbortError,
  SigningApiError,
  SigningNetworkError,
  SigningTimeoutError,
  SubmissionBuildError,
} from './errors.js';
export type { SigningError } from './errors.js';
export type { RateLimitInfo } from './rate-limit.js';
export { DEFAULT_RETRY, backoffDelay } from './retry.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export { DEFAULT_TEXT_STYLE, buildSubmission, missingRequiredFields } from './submission.js';
export type { BuildSubmissionInput } from './submission.js';
export type {
  DocumentMetadata,
  ErrorCode,
  FieldDefinition,
  FieldType,
  FieldValue,
  KeyValidationResult,
  PageInfo,
  RenderContext,
  SdkDocument,
  SubmissionPayload,
  SubmissionRecord,
  SubmissionResult,
  TextStyle,
  CreateSessionRequest,
  BuilderSession,
  CreateBuilderSessionRequest,
  CreatedBuilderSession,
  Draft,
  DraftSigner,
  UpdateDraftRequest,
  DeclineResult,
  CreatedSession,
  ManagedDocument,
  Session,
  SdkSigner,
  Signer,
  SignerDefinition,
  SignerStatus,
  SigningOrder,
  CreateWebhookRequest,
  CreatedWebhook,
  RotatedWebhookSecret,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
} from '@signet/contract';

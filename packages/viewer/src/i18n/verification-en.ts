import type { VerificationMessages } from './messages.js';

/** The code prompt's English texts, in its own chunk with the prompt (docs/signer-auth.md). */
export const verificationEn: VerificationMessages = {
  verifyTitle: 'Confirm it’s you',
  verifyEmailBody: 'To open “{document}”, enter the 6-digit code we e-mail to {email}.',
  verifyAccessBody: 'To open “{document}”, enter the access code the sender gave you.',
  verifySendCode: 'Send code',
  verifyResend: 'Send a new code',
  verifyResendIn: 'New code in {seconds} s',
  verifyCodeSent: 'Code sent to {email}. It is valid for 10 minutes.',
  verifyCodeLabel: '6-digit code',
  verifyAccessCodeLabel: 'Access code',
  verifySubmit: 'Continue',
  verifyWrongCode: 'That code is not right. Attempts left: {attempts}.',
  verifyCodeExpired: 'This code has expired or was used up. Send a new one.',
  verifyLocked: 'Too many wrong codes. Please try again in 15 minutes.',
  verifyTooSoon: 'Please wait a moment before asking for another code.',
};

import type { SignerTexts } from '../signer-texts.js';

/** English, the default. */
export const en: SignerTexts = {
  hello: (name) => `Hello ${name},`,
  invitation: {
    subject: (org, doc) => `${org} asks you to sign ${doc}`,
    ask: (org, doc) => `${org} has sent you "${doc}" to sign.`,
  },
  reminder: {
    subject: (org, doc) => `Reminder: ${org} is waiting for your signature on ${doc}`,
    ask: (org, doc) => `${org} is still waiting for your signature on "${doc}".`,
  },
  expiring: {
    subject: (doc, until) => `Expires soon: ${doc} needs your signature by ${until}`,
    ask: (org, doc, until) => `"${doc}", which ${org} sent you, expires on ${until}. After that it can no longer be signed.`,
  },
  sign: { linkIntro: 'Open it here to read and sign it', button: 'Review and sign', note: 'It is yours alone: do not forward this message.' },
  completed: {
    subject: (doc) => `Signed by everyone: ${doc}`,
    done: (org, doc) => `Everyone has signed "${doc}", which ${org} sent you.`,
    linkIntro: 'Download your signed copy here',
    button: 'Get the signed copy',
    note: 'Keep the signed copy with your records: it carries the signatures and their audit trail.',
  },
  linkUntil: (until) => `The link works until ${until}.`,
  copyLink: 'Or copy this link:',
  sentBy: (org) => `Sent by Signet on behalf of ${org}.`,
  code: {
    subject: (code, doc) => `${code} is your code to open "${doc}"`,
    intro: (doc) => `Your code to open "${doc}" for signing is:`,
    validFor: (minutes) => `It works for ${minutes} minutes.`,
    ignore: 'If you did not ask for it, you can ignore this message: nobody can open the document without it.',
  },
  page: {
    title: (org, doc) => `Sign ${doc} · ${org}`,
    from: (org) => `from ${org}`,
    signingAs: (name) => `Signing as ${name}`,
    notices: {
      invalid: { title: 'This link is not valid', message: 'Check that the whole link was copied from the e-mail, or ask the sender for a new one.' },
      expired: { title: 'This link has expired', message: 'Ask the sender for a new link to sign this document.' },
      voided: { title: 'This document was cancelled', message: 'The sender withdrew this document: there is nothing to sign any more.' },
      documentExpired: { title: 'This document has expired', message: 'It can no longer be signed. Ask the sender if it should be sent again.' },
      declined: { title: 'This document was declined', message: 'A signer declined it, so it can no longer be signed.' },
      erased: { title: 'This document is no longer available', message: 'The sender has removed it.' },
      busy: { title: 'Too many visits', message: 'This page was opened too often in the last minute. Wait a minute, then open the link again.' },
    },
  },
};

import type { SignerTexts } from '../signer-texts.js';

/** Dutch. */
export const nl: SignerTexts = {
  hello: (name) => `Beste ${name},`,
  invitation: {
    subject: (org, doc) => `${org} vraagt u ${doc} te ondertekenen`,
    ask: (org, doc) => `${org} heeft u ‘${doc}’ gestuurd om te ondertekenen.`,
  },
  reminder: {
    subject: (org, doc) => `Herinnering: ${org} wacht op uw handtekening onder ${doc}`,
    ask: (org, doc) => `${org} wacht nog op uw handtekening onder ‘${doc}’.`,
  },
  expiring: {
    subject: (doc, until) => `Verloopt binnenkort: ${doc} moet vóór ${until} ondertekend zijn`,
    ask: (org, doc, until) => `‘${doc}’, dat ${org} u stuurde, verloopt op ${until}. Daarna kan het niet meer worden ondertekend.`,
  },
  sign: { linkIntro: 'Open het hier om het te lezen en te ondertekenen', button: 'Bekijken en ondertekenen', note: 'De link is alleen voor u: stuur dit bericht niet door.' },
  completed: {
    subject: (doc) => `Door iedereen ondertekend: ${doc}`,
    done: (org, doc) => `Iedereen heeft ‘${doc}’ ondertekend, dat ${org} u stuurde.`,
    linkIntro: 'Download hier uw ondertekende kopie',
    button: 'Ondertekende kopie ophalen',
    note: 'Bewaar de ondertekende kopie bij uw administratie: ze bevat de handtekeningen en hun audittrail.',
  },
  linkUntil: (until) => `De link werkt tot ${until}.`,
  copyLink: 'Of kopieer deze link:',
  sentBy: (org) => `Verzonden door Signet namens ${org}.`,
  code: {
    subject: (code, doc) => `${code} is uw code om ‘${doc}’ te openen`,
    intro: (doc) => `Uw code om ‘${doc}’ te openen en te ondertekenen:`,
    validFor: (minutes) => `Hij is ${minutes} minuten geldig.`,
    ignore: 'Hebt u er niet om gevraagd, dan kunt u dit bericht negeren: zonder de code kan niemand het document openen.',
  },
  page: {
    title: (org, doc) => `${doc} ondertekenen · ${org}`,
    from: (org) => `van ${org}`,
    signingAs: (name) => `U ondertekent als ${name}`,
    notices: {
      invalid: { title: 'Deze link is niet geldig', message: 'Controleer of de hele link uit de e-mail is gekopieerd, of vraag de afzender om een nieuwe.' },
      expired: { title: 'Deze link is verlopen', message: 'Vraag de afzender om een nieuwe link om dit document te ondertekenen.' },
      voided: { title: 'Dit document is ingetrokken', message: 'De afzender heeft dit document ingetrokken: er valt niets meer te ondertekenen.' },
      documentExpired: { title: 'Dit document is verlopen', message: 'Het kan niet meer worden ondertekend. Vraag de afzender of het opnieuw moet worden verstuurd.' },
      declined: { title: 'Dit document is geweigerd', message: 'Een ondertekenaar heeft het geweigerd, dus het kan niet meer worden ondertekend.' },
      erased: { title: 'Dit document is niet meer beschikbaar', message: 'De afzender heeft het verwijderd.' },
      busy: { title: 'Te veel bezoeken', message: 'Deze pagina is in de afgelopen minuut te vaak geopend. Wacht een minuut en open de link dan opnieuw.' },
    },
  },
};

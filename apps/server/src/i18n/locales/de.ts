import type { SignerTexts } from '../signer-texts.js';

/** German. */
export const de: SignerTexts = {
  hello: (name) => `Hallo ${name},`,
  invitation: {
    subject: (org, doc) => `${org} bittet Sie, ${doc} zu unterschreiben`,
    ask: (org, doc) => `${org} hat Ihnen „${doc}“ zur Unterschrift gesendet.`,
  },
  reminder: {
    subject: (org, doc) => `Erinnerung: ${org} wartet auf Ihre Unterschrift unter ${doc}`,
    ask: (org, doc) => `${org} wartet noch auf Ihre Unterschrift unter „${doc}“.`,
  },
  expiring: {
    subject: (doc, until) => `Läuft bald ab: ${doc} braucht Ihre Unterschrift bis ${until}`,
    ask: (org, doc, until) => `„${doc}“, das ${org} Ihnen gesendet hat, läuft am ${until} ab. Danach kann es nicht mehr unterschrieben werden.`,
  },
  sign: { linkIntro: 'Hier öffnen, lesen und unterschreiben', button: 'Prüfen und unterschreiben', note: 'Er gilt nur für Sie: Leiten Sie diese Nachricht nicht weiter.' },
  completed: {
    subject: (doc) => `Von allen unterschrieben: ${doc}`,
    done: (org, doc) => `Alle haben „${doc}“ unterschrieben, das ${org} Ihnen gesendet hat.`,
    linkIntro: 'Hier laden Sie Ihre unterschriebene Kopie herunter',
    button: 'Unterschriebene Kopie laden',
    note: 'Bewahren Sie die unterschriebene Kopie bei Ihren Unterlagen auf: Sie enthält die Unterschriften und ihr Prüfprotokoll.',
  },
  linkUntil: (until) => `Der Link gilt bis ${until}.`,
  copyLink: 'Oder kopieren Sie diesen Link:',
  sentBy: (org) => `Von Signet im Auftrag von ${org} gesendet.`,
  code: {
    subject: (code, doc) => `${code} ist Ihr Code zum Öffnen von „${doc}“`,
    intro: (doc) => `Ihr Code, um „${doc}“ zum Unterschreiben zu öffnen:`,
    validFor: (minutes) => `Er gilt ${minutes} Minuten.`,
    ignore: 'Wenn Sie ihn nicht angefordert haben, können Sie diese Nachricht ignorieren: Ohne ihn kann niemand das Dokument öffnen.',
  },
  page: {
    title: (org, doc) => `${doc} unterschreiben · ${org}`,
    from: (org) => `von ${org}`,
    signingAs: (name) => `Sie unterschreiben als ${name}`,
    notices: {
      invalid: { title: 'Dieser Link ist ungültig', message: 'Prüfen Sie, ob der ganze Link aus der E-Mail kopiert wurde, oder bitten Sie den Absender um einen neuen.' },
      expired: { title: 'Dieser Link ist abgelaufen', message: 'Bitten Sie den Absender um einen neuen Link, um dieses Dokument zu unterschreiben.' },
      voided: { title: 'Dieses Dokument wurde zurückgezogen', message: 'Der Absender hat dieses Dokument zurückgezogen: Es gibt nichts mehr zu unterschreiben.' },
      documentExpired: { title: 'Dieses Dokument ist abgelaufen', message: 'Es kann nicht mehr unterschrieben werden. Fragen Sie den Absender, ob es erneut gesendet werden soll.' },
      declined: { title: 'Dieses Dokument wurde abgelehnt', message: 'Ein Unterzeichner hat es abgelehnt, daher kann es nicht mehr unterschrieben werden.' },
      erased: { title: 'Dieses Dokument ist nicht mehr verfügbar', message: 'Der Absender hat es entfernt.' },
      busy: { title: 'Zu viele Aufrufe', message: 'Diese Seite wurde in der letzten Minute zu oft geöffnet. Warten Sie eine Minute und öffnen Sie den Link dann erneut.' },
    },
  },
};

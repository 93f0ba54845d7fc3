import type { SignerTexts } from '../signer-texts.js';

/** Italian. */
export const it: SignerTexts = {
  hello: (name) => `Gentile ${name},`,
  invitation: {
    subject: (org, doc) => `${org} le chiede di firmare ${doc}`,
    ask: (org, doc) => `${org} le ha inviato «${doc}» da firmare.`,
  },
  reminder: {
    subject: (org, doc) => `Promemoria: ${org} attende la sua firma su ${doc}`,
    ask: (org, doc) => `${org} attende ancora la sua firma su «${doc}».`,
  },
  expiring: {
    subject: (doc, until) => `Scade presto: ${doc} va firmato entro il ${until}`,
    ask: (org, doc, until) => `«${doc}», che ${org} le ha inviato, scade il ${until}. Dopo non potrà più essere firmato.`,
  },
  sign: { linkIntro: 'Lo apra qui per leggerlo e firmarlo', button: 'Leggi e firma', note: 'È solo per lei: non inoltri questo messaggio.' },
  completed: {
    subject: (doc) => `Firmato da tutti: ${doc}`,
    done: (org, doc) => `Tutti hanno firmato «${doc}», che ${org} le ha inviato.`,
    linkIntro: 'Scarichi qui la sua copia firmata',
    button: 'Scarica la copia firmata',
    note: 'Conservi la copia firmata tra i suoi documenti: contiene le firme e il loro registro di controllo.',
  },
  linkUntil: (until) => `Il link è valido fino al ${until}.`,
  copyLink: 'Oppure copi questo link:',
  sentBy: (org) => `Inviato da Signet per conto di ${org}.`,
  code: {
    subject: (code, doc) => `${code} è il suo codice per aprire «${doc}»`,
    intro: (doc) => `Il suo codice per aprire «${doc}» e firmarlo è:`,
    validFor: (minutes) => `È valido per ${minutes} minuti.`,
    ignore: 'Se non l’ha richiesto, può ignorare questo messaggio: nessuno può aprire il documento senza il codice.',
  },
  page: {
    title: (org, doc) => `Firma ${doc} · ${org}`,
    from: (org) => `da ${org}`,
    signingAs: (name) => `Firma come ${name}`,
    notices: {
      invalid: { title: 'Questo link non è valido', message: 'Verifichi di aver copiato l’intero link dall’e-mail, oppure ne chieda uno nuovo al mittente.' },
      expired: { title: 'Questo link è scaduto', message: 'Chieda al mittente un nuovo link per firmare questo documento.' },
      voided: { title: 'Questo documento è stato annullato', message: 'Il mittente ha ritirato questo documento: non c’è più nulla da firmare.' },
      documentExpired: { title: 'Questo documento è scaduto', message: 'Non può più essere firmato. Chieda al mittente se va inviato di nuovo.' },
      declined: { title: 'Questo documento è stato rifiutato', message: 'Un firmatario l’ha rifiutato, quindi non può più essere firmato.' },
      erased: { title: 'Questo documento non è più disponibile', message: 'Il mittente l’ha rimosso.' },
      busy: { title: 'Troppe visite', message: 'Questa pagina è stata aperta troppe volte nell’ultimo minuto. Attenda un minuto, poi riapra il link.' },
    },
  },
};

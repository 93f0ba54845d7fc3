import type { SignerTexts } from '../signer-texts.js';

/** French. */
export const fr: SignerTexts = {
  hello: (name) => `Bonjour ${name},`,
  invitation: {
    subject: (org, doc) => `${org} vous invite à signer ${doc}`,
    ask: (org, doc) => `${org} vous a envoyé « ${doc} » à signer.`,
  },
  reminder: {
    subject: (org, doc) => `Rappel : ${org} attend votre signature sur ${doc}`,
    ask: (org, doc) => `${org} attend toujours votre signature sur « ${doc} ».`,
  },
  expiring: {
    subject: (doc, until) => `Expire bientôt : ${doc} doit être signé avant le ${until}`,
    ask: (org, doc, until) => `« ${doc} », que ${org} vous a envoyé, expire le ${until}. Ensuite, il ne pourra plus être signé.`,
  },
  sign: { linkIntro: 'Ouvrez-le ici pour le lire et le signer', button: 'Lire et signer', note: 'Il vous est personnel : ne transférez pas ce message.' },
  completed: {
    subject: (doc) => `Signé par tous : ${doc}`,
    done: (org, doc) => `Tout le monde a signé « ${doc} », que ${org} vous a envoyé.`,
    linkIntro: 'Téléchargez votre copie signée ici',
    button: 'Obtenir la copie signée',
    note: 'Conservez la copie signée avec vos documents : elle porte les signatures et leur piste d’audit.',
  },
  linkUntil: (until) => `Le lien est valable jusqu’au ${until}.`,
  copyLink: 'Ou copiez ce lien :',
  sentBy: (org) => `Envoyé par Signet pour le compte de ${org}.`,
  code: {
    subject: (code, doc) => `${code} est votre code pour ouvrir « ${doc} »`,
    intro: (doc) => `Votre code pour ouvrir « ${doc} » et le signer :`,
    validFor: (minutes) => `Il est valable ${minutes} minutes.`,
    ignore: 'Si vous ne l’avez pas demandé, ignorez ce message : personne ne peut ouvrir le document sans lui.',
  },
  page: {
    title: (org, doc) => `Signer ${doc} · ${org}`,
    from: (org) => `de ${org}`,
    signingAs: (name) => `Vous signez en tant que ${name}`,
    notices: {
      invalid: { title: 'Ce lien n’est pas valide', message: 'Vérifiez que le lien a été copié en entier depuis l’e-mail, ou demandez-en un nouveau à l’expéditeur.' },
      expired: { title: 'Ce lien a expiré', message: 'Demandez à l’expéditeur un nouveau lien pour signer ce document.' },
      voided: { title: 'Ce document a été annulé', message: 'L’expéditeur a retiré ce document : il n’y a plus rien à signer.' },
      documentExpired: { title: 'Ce document a expiré', message: 'Il ne peut plus être signé. Demandez à l’expéditeur s’il doit être renvoyé.' },
      declined: { title: 'Ce document a été refusé', message: 'Un signataire l’a refusé : il ne peut plus être signé.' },
      erased: { title: 'Ce document n’est plus disponible', message: 'L’expéditeur l’a supprimé.' },
      busy: { title: 'Trop de visites', message: 'Cette page a été ouverte trop souvent dans la dernière minute. Attendez une minute, puis rouvrez le lien.' },
    },
  },
};

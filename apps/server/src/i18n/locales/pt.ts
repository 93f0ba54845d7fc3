import type { SignerTexts } from '../signer-texts.js';

/** Portuguese. */
export const pt: SignerTexts = {
  hello: (name) => `Olá, ${name},`,
  invitation: {
    subject: (org, doc) => `${org} pede que você assine ${doc}`,
    ask: (org, doc) => `${org} enviou “${doc}” para você assinar.`,
  },
  reminder: {
    subject: (org, doc) => `Lembrete: ${org} aguarda a sua assinatura em ${doc}`,
    ask: (org, doc) => `${org} ainda aguarda a sua assinatura em “${doc}”.`,
  },
  expiring: {
    subject: (doc, until) => `Expira em breve: ${doc} precisa da sua assinatura até ${until}`,
    ask: (org, doc, until) => `“${doc}”, que ${org} lhe enviou, expira em ${until}. Depois disso, não poderá mais ser assinado.`,
  },
  sign: { linkIntro: 'Abra-o aqui para ler e assinar', button: 'Rever e assinar', note: 'Ele é só seu: não encaminhe esta mensagem.' },
  completed: {
    subject: (doc) => `Assinado por todos: ${doc}`,
    done: (org, doc) => `Todos assinaram “${doc}”, que ${org} lhe enviou.`,
    linkIntro: 'Baixe aqui a sua cópia assinada',
    button: 'Obter a cópia assinada',
    note: 'Guarde a cópia assinada com os seus registros: ela contém as assinaturas e a respectiva trilha de auditoria.',
  },
  linkUntil: (until) => `O link funciona até ${until}.`,
  copyLink: 'Ou copie este link:',
  sentBy: (org) => `Enviado pela Signet em nome de ${org}.`,
  code: {
    subject: (code, doc) => `${code} é o seu código para abrir “${doc}”`,
    intro: (doc) => `O seu código para abrir “${doc}” e assiná-lo é:`,
    validFor: (minutes) => `Ele vale por ${minutes} minutos.`,
    ignore: 'Se você não o pediu, pode ignorar esta mensagem: ninguém consegue abrir o documento sem ele.',
  },
  page: {
    title: (org, doc) => `Assinar ${doc} · ${org}`,
    from: (org) => `de ${org}`,
    signingAs: (name) => `Assinando como ${name}`,
    notices: {
      invalid: { title: 'Este link não é válido', message: 'Verifique se o link foi copiado inteiro do e-mail ou peça um novo ao remetente.' },
      expired: { title: 'Este link expirou', message: 'Peça ao remetente um novo link para assinar este documento.' },
      voided: { title: 'Este documento foi cancelado', message: 'O remetente retirou este documento: não há mais nada para assinar.' },
      documentExpired: { title: 'Este documento expirou', message: 'Ele não pode mais ser assinado. Pergunte ao remetente se deve ser enviado de novo.' },
      declined: { title: 'Este documento foi recusado', message: 'Um signatário o recusou, por isso ele não pode mais ser assinado.' },
      erased: { title: 'Este documento não está mais disponível', message: 'O remetente o removeu.' },
      busy: { title: 'Visitas demais', message: 'Esta página foi aberta vezes demais no último minuto. Aguarde um minuto e abra o link de novo.' },
    },
  },
};

import type { SignerTexts } from '../signer-texts.js';

/** Spanish. */
export const es: SignerTexts = {
  hello: (name) => `Hola, ${name}:`,
  invitation: {
    subject: (org, doc) => `${org} le pide que firme ${doc}`,
    ask: (org, doc) => `${org} le ha enviado «${doc}» para firmar.`,
  },
  reminder: {
    subject: (org, doc) => `Recordatorio: ${org} espera su firma en ${doc}`,
    ask: (org, doc) => `${org} sigue esperando su firma en «${doc}».`,
  },
  expiring: {
    subject: (doc, until) => `Caduca pronto: ${doc} necesita su firma antes del ${until}`,
    ask: (org, doc, until) => `«${doc}», que ${org} le envió, caduca el ${until}. Después ya no se podrá firmar.`,
  },
  sign: { linkIntro: 'Ábralo aquí para leerlo y firmarlo', button: 'Revisar y firmar', note: 'Es solo para usted: no reenvíe este mensaje.' },
  completed: {
    subject: (doc) => `Firmado por todos: ${doc}`,
    done: (org, doc) => `Todos han firmado «${doc}», que ${org} le envió.`,
    linkIntro: 'Descargue aquí su copia firmada',
    button: 'Obtener la copia firmada',
    note: 'Guarde la copia firmada con sus documentos: contiene las firmas y su registro de auditoría.',
  },
  linkUntil: (until) => `El enlace funciona hasta el ${until}.`,
  copyLink: 'O copie este enlace:',
  sentBy: (org) => `Enviado por Signet en nombre de ${org}.`,
  code: {
    subject: (code, doc) => `${code} es su código para abrir «${doc}»`,
    intro: (doc) => `Su código para abrir «${doc}» y firmarlo es:`,
    validFor: (minutes) => `Es válido durante ${minutes} minutos.`,
    ignore: 'Si no lo ha pedido, puede ignorar este mensaje: nadie puede abrir el documento sin él.',
  },
  page: {
    title: (org, doc) => `Firmar ${doc} · ${org}`,
    from: (org) => `de ${org}`,
    signingAs: (name) => `Firma como ${name}`,
    notices: {
      invalid: { title: 'Este enlace no es válido', message: 'Compruebe que copió el enlace completo del correo o pida uno nuevo al remitente.' },
      expired: { title: 'Este enlace ha caducado', message: 'Pida al remitente un enlace nuevo para firmar este documento.' },
      voided: { title: 'Este documento se ha anulado', message: 'El remitente retiró este documento: ya no hay nada que firmar.' },
      documentExpired: { title: 'Este documento ha caducado', message: 'Ya no se puede firmar. Pregunte al remitente si debe enviarse de nuevo.' },
      declined: { title: 'Este documento fue rechazado', message: 'Un firmante lo rechazó, así que ya no se puede firmar.' },
      erased: { title: 'Este documento ya no está disponible', message: 'El remitente lo ha eliminado.' },
      busy: { title: 'Demasiadas visitas', message: 'Esta página se abrió demasiadas veces en el último minuto. Espere un minuto y vuelva a abrir el enlace.' },
    },
  },
};

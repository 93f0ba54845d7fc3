import type { SignerTexts } from '../signer-texts.js';

/** Polish. */
export const pl: SignerTexts = {
  hello: (name) => `Dzień dobry ${name},`,
  invitation: {
    subject: (org, doc) => `${org} prosi o podpisanie dokumentu ${doc}`,
    ask: (org, doc) => `${org} przesyła dokument „${doc}” do podpisu.`,
  },
  reminder: {
    subject: (org, doc) => `Przypomnienie: ${org} czeka na podpis dokumentu ${doc}`,
    ask: (org, doc) => `${org} wciąż czeka na podpis dokumentu „${doc}”.`,
  },
  expiring: {
    subject: (doc, until) => `Wkrótce wygasa: ${doc} wymaga podpisu do ${until}`,
    ask: (org, doc, until) => `Dokument „${doc}” od ${org} wygasa ${until}. Potem nie będzie można go podpisać.`,
  },
  sign: { linkIntro: 'Otwórz go tutaj, aby go przeczytać i podpisać', button: 'Przejrzyj i podpisz', note: 'Link jest tylko dla Ciebie: nie przekazuj tej wiadomości dalej.' },
  completed: {
    subject: (doc) => `Podpisany przez wszystkich: ${doc}`,
    done: (org, doc) => `Wszyscy podpisali dokument „${doc}” od ${org}.`,
    linkIntro: 'Pobierz tutaj swoją podpisaną kopię',
    button: 'Pobierz podpisaną kopię',
    note: 'Zachowaj podpisaną kopię w swojej dokumentacji: zawiera podpisy i ich dziennik audytu.',
  },
  linkUntil: (until) => `Link działa do ${until}.`,
  copyLink: 'Lub skopiuj ten link:',
  sentBy: (org) => `Wysłane przez Signet w imieniu ${org}.`,
  code: {
    subject: (code, doc) => `${code} to Twój kod do otwarcia dokumentu „${doc}”`,
    intro: (doc) => `Twój kod do otwarcia dokumentu „${doc}” w celu podpisania:`,
    validFor: (minutes) => `Jest ważny przez ${minutes} minut.`,
    ignore: 'Jeśli nie wiesz, skąd ten kod, zignoruj tę wiadomość: bez niego nikt nie otworzy dokumentu.',
  },
  page: {
    title: (org, doc) => `Podpisz ${doc} · ${org}`,
    from: (org) => `od ${org}`,
    signingAs: (name) => `Podpisujesz jako ${name}`,
    notices: {
      invalid: { title: 'Ten link jest nieprawidłowy', message: 'Sprawdź, czy skopiowano cały link z wiadomości e-mail, lub poproś nadawcę o nowy.' },
      expired: { title: 'Ten link wygasł', message: 'Poproś nadawcę o nowy link do podpisania tego dokumentu.' },
      voided: { title: 'Ten dokument został anulowany', message: 'Nadawca wycofał ten dokument: nie ma już nic do podpisania.' },
      documentExpired: { title: 'Ten dokument wygasł', message: 'Nie można go już podpisać. Zapytaj nadawcę, czy należy go wysłać ponownie.' },
      declined: { title: 'Ten dokument został odrzucony', message: 'Jeden z podpisujących go odrzucił, więc nie można go już podpisać.' },
      erased: { title: 'Ten dokument nie jest już dostępny', message: 'Nadawca go usunął.' },
      busy: { title: 'Zbyt wiele wizyt', message: 'Ta strona została otwarta zbyt wiele razy w ciągu ostatniej minuty. Odczekaj minutę i otwórz link ponownie.' },
    },
  },
};

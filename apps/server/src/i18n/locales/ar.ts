import type { SignerTexts } from '../signer-texts.js';

/** Arabic, written right to left. */
export const ar: SignerTexts = {
  hello: (name) => `مرحبًا ${name}،`,
  invitation: {
    subject: (org, doc) => `تطلب منك ${org} توقيع ${doc}`,
    ask: (org, doc) => `أرسلت إليك ${org} «${doc}» لتوقيعه.`,
  },
  reminder: {
    subject: (org, doc) => `تذكير: ${org} بانتظار توقيعك على ${doc}`,
    ask: (org, doc) => `لا تزال ${org} بانتظار توقيعك على «${doc}».`,
  },
  expiring: {
    subject: (doc, until) => `ينتهي قريبًا: يحتاج ${doc} إلى توقيعك قبل ${until}`,
    ask: (org, doc, until) => `تنتهي صلاحية «${doc}» الذي أرسلته إليك ${org} في ${until}. بعد ذلك لن يمكن توقيعه.`,
  },
  sign: { linkIntro: 'افتحه من هنا لقراءته وتوقيعه', button: 'المراجعة والتوقيع', note: 'هذا الرابط لك وحدك: لا تُعِد توجيه هذه الرسالة.' },
  completed: {
    subject: (doc) => `وقّعه الجميع: ${doc}`,
    done: (org, doc) => `وقّع الجميع «${doc}» الذي أرسلته إليك ${org}.`,
    linkIntro: 'نزّل نسختك الموقّعة من هنا',
    button: 'الحصول على النسخة الموقّعة',
    note: 'احتفظ بالنسخة الموقّعة ضمن سجلاتك: فهي تحمل التوقيعات وسجل تدقيقها.',
  },
  linkUntil: (until) => `يعمل الرابط حتى ${until}.`,
  copyLink: 'أو انسخ هذا الرابط:',
  sentBy: (org) => `أرسلته Signet نيابةً عن ${org}.`,
  code: {
    subject: (code, doc) => `${code} هو رمزك لفتح «${doc}»`,
    intro: (doc) => `رمزك لفتح «${doc}» وتوقيعه هو:`,
    validFor: (minutes) => `يعمل لمدة ${minutes} دقائق.`,
    ignore: 'إن لم تطلبه، يمكنك تجاهل هذه الرسالة: لا يمكن لأحد فتح المستند بدونه.',
  },
  page: {
    title: (org, doc) => `توقيع ${doc} · ${org}`,
    from: (org) => `من ${org}`,
    signingAs: (name) => `توقّع بصفتك ${name}`,
    notices: {
      invalid: { title: 'هذا الرابط غير صالح', message: 'تحقق من نسخ الرابط كاملًا من البريد الإلكتروني، أو اطلب رابطًا جديدًا من المرسل.' },
      expired: { title: 'انتهت صلاحية هذا الرابط', message: 'اطلب من المرسل رابطًا جديدًا لتوقيع هذا المستند.' },
      voided: { title: 'أُلغي هذا المستند', message: 'سحب المرسل هذا المستند: لم يعد هناك ما يُوقَّع.' },
      documentExpired: { title: 'انتهت صلاحية هذا المستند', message: 'لم يعد من الممكن توقيعه. اسأل المرسل إن كان ينبغي إرساله مجددًا.' },
      declined: { title: 'رُفض هذا المستند', message: 'رفضه أحد الموقّعين، لذا لم يعد من الممكن توقيعه.' },
      erased: { title: 'هذا المستند لم يعد متاحًا', message: 'أزاله المرسل.' },
      busy: { title: 'زيارات كثيرة جدًا', message: 'فُتحت هذه الصفحة مرات كثيرة خلال الدقيقة الماضية. انتظر دقيقة ثم افتح الرابط مجددًا.' },
    },
  },
};

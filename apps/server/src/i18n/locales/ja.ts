import type { SignerTexts } from '../signer-texts.js';

/** Japanese. */
export const ja: SignerTexts = {
  hello: (name) => `${name} 様`,
  invitation: {
    subject: (org, doc) => `${org}から「${doc}」への署名のお願い`,
    ask: (org, doc) => `${org}から「${doc}」が署名のために送信されました。`,
  },
  reminder: {
    subject: (org, doc) => `リマインダー：${org}が「${doc}」へのご署名をお待ちしています`,
    ask: (org, doc) => `${org}は「${doc}」へのご署名をまだお待ちしています。`,
  },
  expiring: {
    subject: (doc, until) => `まもなく期限切れ：「${doc}」に${until}までにご署名ください`,
    ask: (org, doc, until) => `${org}から送信された「${doc}」は${until}に期限切れになります。それ以降は署名できません。`,
  },
  sign: { linkIntro: 'こちらから開いて内容を確認し、署名してください', button: '確認して署名', note: 'このリンクはあなた専用です。このメッセージを転送しないでください。' },
  completed: {
    subject: (doc) => `全員の署名が完了しました：「${doc}」`,
    done: (org, doc) => `${org}から送信された「${doc}」に全員が署名しました。`,
    linkIntro: '署名済みの控えはこちらからダウンロードできます',
    button: '署名済みの控えを入手',
    note: '署名済みの控えは記録として保管してください。署名とその監査証跡が含まれています。',
  },
  linkUntil: (until) => `このリンクは${until}まで有効です。`,
  copyLink: 'または次のリンクをコピーしてください：',
  sentBy: (org) => `${org}に代わってSignetが送信しました。`,
  code: {
    subject: (code, doc) => `${code} は「${doc}」を開くためのコードです`,
    intro: (doc) => `「${doc}」を開いて署名するためのコード：`,
    validFor: (minutes) => `有効期間は${minutes}分です。`,
    ignore: 'お心当たりがない場合は、このメッセージを無視してください。コードがなければ誰も文書を開けません。',
  },
  page: {
    title: (org, doc) => `「${doc}」に署名 · ${org}`,
    from: (org) => `${org}から`,
    signingAs: (name) => `${name}として署名`,
    notices: {
      invalid: { title: 'このリンクは無効です', message: 'メールからリンク全体がコピーされているか確認するか、送信者に新しいリンクを依頼してください。' },
      expired: { title: 'このリンクは期限切れです', message: 'この文書に署名するための新しいリンクを送信者に依頼してください。' },
      voided: { title: 'この文書は取り消されました', message: '送信者がこの文書を取り下げました。署名するものはもうありません。' },
      documentExpired: { title: 'この文書は期限切れです', message: 'もう署名できません。再送が必要かどうか送信者にお問い合わせください。' },
      declined: { title: 'この文書は拒否されました', message: '署名者の一人が拒否したため、もう署名できません。' },
      erased: { title: 'この文書はもう利用できません', message: '送信者が削除しました。' },
      busy: { title: 'アクセスが多すぎます', message: 'このページは直前の1分間に何度も開かれました。1分待ってから、もう一度リンクを開いてください。' },
    },
  },
};

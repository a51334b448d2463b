// One name per term in 简体中文: the name every Chinese string of the site
// uses (zh) and the variants it must not use (not), checked over
// web/src/i18n and the lessons by tests/web/zh-terms.test.mjs.
export const ZH_TERMS = [
  { en: 'query (vector)', zh: 'query', not: [/查询/] },
  // 方向键 and 键盘 are keys of the keyboard, 键名 a JSON key
  { en: 'key (vector)', zh: 'key', not: [/(?<!方向)键(?![盘名])/] },
  { en: 'token embedding', zh: '词嵌入', not: [/词向量/, /(?<!词)嵌入/] },
  { en: 'token', zh: '词元', not: [/标记(?!为)/, /令牌/] },
  { en: 'half layout (rotate_half)', zh: '对半', not: [/半分/] },
  { en: 'offset', zh: '偏移', not: [/只有距离要紧/] },
  { en: 'pair j', zh: '第 j 对', not: [/(?<![第各\w] ?)对 [ij](?![\w])/] },
  { en: 'positional encoding', zh: '位置编码', not: [/位置嵌入/] },
];

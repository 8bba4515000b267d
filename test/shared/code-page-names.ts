import { createRequire } from 'node:module';

/**
 * Names as people in each country write them, and the code pages their tools save them in
 * (Excel's "CSV (Comma delimited)" uses the Windows code page of its locale; older Unix tools
 * the ISO-8859 and KOI8 sets; an old Mac, Mac Roman). Encoded with iconv-lite, a real encoder
 * independent of the decoders under test (a dependency of the toolchain, used only by tests).
 */
const iconv = createRequire(import.meta.url)('iconv-lite') as { encode(text: string, encoding: string): Buffer };

export const encode = (text: string, encoding: string): Buffer => iconv.encode(text, encoding);

export interface Script {
  /** The code pages its names are saved in, as iconv-lite names them. */
  readonly codePages: readonly string[];
  readonly given: readonly string[];
  readonly family: readonly string[];
  /** Family name first, with no space (Chinese, Korean), or with one (Japanese); else given name first. */
  readonly order: 'family-given' | 'family given' | 'given family';
}

export const SCRIPTS: Readonly<Record<string, Script>> = {
  chinese: {
    codePages: ['gb18030', 'cp936'],
    given: [
      '小明',
      '娜',
      '伟',
      '芳',
      '静',
      '强',
      '磊',
      '洋',
      '艳',
      '勇',
      '军',
      '杰',
      '娟',
      '涛',
      '明',
      '超',
      '秀英',
      '桂英',
      '建华',
      '志强',
      '丽',
      '敏',
      '欣怡',
      '子涵',
    ],
    family: ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何', '林', '高', '罗'],
    order: 'family-given',
  },
  traditionalChinese: {
    codePages: ['big5'],
    given: ['美玲', '志明', '淑芬', '家豪', '怡君', '俊傑', '雅婷', '建宏', '宗翰', '佩君'],
    family: ['陳', '林', '黃', '張', '李', '王', '吳', '劉', '蔡', '楊'],
    order: 'family-given',
  },
  korean: {
    codePages: ['cp949', 'euc-kr'],
    given: ['민준', '서연', '지훈', '서윤', '도윤', '하은', '예준', '지우', '시우', '수아', '주원', '지호', '은지', '현우'],
    family: ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신'],
    order: 'family-given',
  },
  japanese: {
    codePages: ['shift_jis', 'cp932', 'euc-jp'],
    given: ['太郎', '花子', '健太', 'さくら', '翔太', '美咲', '大輔', 'ゆい', '拓也', '陽菜', '一郎', '直美'],
    family: ['山田', '佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '中村', '小林', '加藤', '吉田', '山本'],
    order: 'family given',
  },
  russian: {
    codePages: ['windows-1251', 'koi8-r', 'iso-8859-5'],
    given: ['Иван', 'Ольга', 'Сергей', 'Наталья', 'Алексей', 'Елена', 'Дмитрий', 'Татьяна', 'Андрей', 'Юлия', 'Михаил', 'Ирина', 'Ян'],
    family: ['Петров', 'Смирнова', 'Иванов', 'Кузнецова', 'Попов', 'Соколова', 'Лебедев', 'Новикова', 'Морозов', 'Волкова', 'Ёлкин'],
    order: 'given family',
  },
  centralEuropean: {
    codePages: ['windows-1250', 'iso-8859-2'],
    given: ['Łukasz', 'Zofia', 'Jiří', 'Małgorzata', 'Paweł', 'Agnieszka', 'Tomáš', 'Kateřina', 'Michał', 'Józef', 'Anna', 'Piotr', 'Gábor', 'Ödön'],
    family: [
      'Wójcik',
      'Dąbrowska',
      'Novák',
      'Kowalski',
      'Wiśniewski',
      'Dvořák',
      'Lewandowska',
      'Zieliński',
      'Černý',
      'Kamińska',
      'Szymański',
      'Nagy',
      'Kovács',
    ],
    order: 'given family',
  },
  greek: {
    codePages: ['iso-8859-7', 'windows-1253'],
    given: ['Γιώργος', 'Μαρία', 'Νίκος', 'Ελένη', 'Δημήτρης', 'Κατερίνα', 'Γιάννης', 'Σοφία'],
    family: ['Παπαδόπουλος', 'Κωνσταντίνου', 'Γεωργίου', 'Νικολάου', 'Ιωάννου', 'Οικονόμου'],
    order: 'given family',
  },
  western: {
    codePages: ['macintosh', 'windows-1252', 'iso-8859-1', 'iso-8859-15'],
    given: ['Björn', 'Zoë', 'José', 'François', 'Åsa', 'Jürgen', 'Inés', 'Søren', 'Chloé', 'Anna', 'Peter', 'Renée'],
    family: ['Ångström', 'Müller', 'García', 'Núñez', 'Lefèvre', 'Østergaard', 'Smith', 'Köhler', 'Gonçalves', 'Brontë'],
    order: 'given family',
  },
  turkish: {
    codePages: ['windows-1254', 'iso-8859-9'],
    given: ['Ayşe', 'Mehmet', 'Gül', 'Çağrı', 'Ömer', 'İbrahim', 'Zeynep'],
    family: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Öztürk'],
    order: 'given family',
  },
  baltic: {
    codePages: ['windows-1257', 'iso-8859-13', 'iso-8859-4'],
    given: ['Birutė', 'Jonas', 'Šarūnas', 'Rūta', 'Žydrūnas', 'Ieva', 'Jānis', 'Līga'],
    family: ['Žemaitis', 'Kazlauskas', 'Petrauskienė', 'Jankauskas', 'Bērziņš', 'Kalniņa'],
    order: 'given family',
  },
};

export function fullName(script: Script, given: string, family: string): string {
  if (script.order === 'family-given') return `${family}${given}`;
  if (script.order === 'family given') return `${family} ${given}`;
  return `${given} ${family}`;
}

/** A CSV file as Excel writes it (CRLF), one row per name, with made-up e-mails. */
export const csvOf = (names: readonly string[], separator = ',') =>
  `email${separator}name\r\n${names.map((name, i) => `person${i + 1}@acme.example${separator}${name}`).join('\r\n')}\r\n`;

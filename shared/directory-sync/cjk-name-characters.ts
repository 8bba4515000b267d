/**
 * The characters most Chinese, Japanese and Korean names are written with: the common family
 * names and the characters of given names. A Korean file read in GB18030 gives Chinese
 * characters too, but random ones: few of them are in these lists, while nearly every
 * character of real names is. That is what tells GB18030, Shift_JIS, EUC-JP and EUC-KR apart
 * (detect-encoding.ts), where every reading is made of letters and chardet's score cannot be
 * trusted.
 */

const CHINESE =
  // Family names, the most common first.
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝' +
  // Given names.
  '小大伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀英霞平刚华建国红玲凤云辉鹏飞宇浩然子涵欣怡梓轩晨雨博志婷雪琳颖慧佳琪嘉悦思语诗晓丹萍燕玉海波斌亮宏峰天健俊凯翔鑫淑珍春德福贵荣生才成东新民永立清正光庆家豪晶莹露洁倩芬薇娇晴妍瑶婉媛一二三中长春秋冬月星阳晖瑞祥泽宸昊睿航铭哲彤萱琳婧婕娅倩蕾';

const JAPANESE =
  // Family names.
  '佐藤鈴木高橋田中伊渡辺山本村小林加吉松井清水斎森池野川口阿部石原坂上西岡後長谷近横遠千葉宮崎大内島岩杉浦菅丸今堀北和久保平尾菊地福武永桜樋酒辻竹荒関前三宅工増岸新市河菅秋梅土屋金子' +
  // Given names.
  '太郎一二三四次健翔輔拓也直人彦康弘正幸雄誠浩司修樹亮介輝明美咲花恵陽菜結衣愛優真由香奈里紀智洋穂沙織夏蓮颯湊蒼悠凛葵陸斗大和奏子';

const KOREAN =
  // Family names.
  '김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민라진지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예' +
  // Given names.
  '준서연훈윤하은예시수아호영희숙자경미혜선순화철재동태상범규혁빈건나리다솔채율람슬별찬욱환기용지우민도현주원정진성수';

const HAN_NAMES = new Set([...CHINESE, ...JAPANESE]);
const HANGUL_NAMES = new Set(KOREAN);

const HAN = /\p{Script=Han}/u;
const HANGUL = /\p{Script=Hangul}/u;

/** How many of a text's Han and Hangul characters there are, and how many are name characters. */
export function nameCharacters(text: string): { readonly total: number; readonly common: number } {
  let total = 0;
  let common = 0;
  for (const character of text) {
    if (HAN.test(character)) {
      total += 1;
      if (HAN_NAMES.has(character)) common += 1;
    } else if (HANGUL.test(character)) {
      total += 1;
      if (HANGUL_NAMES.has(character)) common += 1;
    }
  }
  return { total, common };
}

import type { CityCode } from '~/lib/cities';
import type { LanguageCode } from '~/lib/languages';
import type { Locale } from '~/i18n/config';
import type { Scene } from '~/services/platform/generated-images.server';

/**
 * Demo content for 旅遊助手 (Travel Assistant): data only, no logic.
 * Used by the seed script and the test fixtures.
 */

export type DemoGuide = {
  name: string;
  city: CityCode;
  languages: LanguageCode[];
  /** Price in NT$ of one booked slot for the whole group (multiple of 100, 1200–4800; docs/decisions/016). */
  price: number;
  bio: string;
  description: string;
};

export type DemoTraveler = { name: string; emailLocalPart: string };

export type DemoReviewComment = { rating: 1 | 2 | 3 | 4 | 5; comment: string };

export type DemoBanner = {
  linkUrl: string;
  /** 0–360, used to generate the gradient image. */
  hue: number;
  /** What the banner's picture shows (app/services/platform/generated-images.server.ts): it matches the place it links to. */
  scene: Scene;
  text: Record<Locale, { title: string; subtitle: string }>;
};

export type DemoTermsKind = 'terms' | 'privacy' | 'booking';

export type DemoTermsDocument = Record<Locale, { title: string; content: string }>;

// ---------------------------------------------------------------------------
// Guides (36)
// ---------------------------------------------------------------------------

export const demoGuides: ReadonlyArray<DemoGuide> = [
  // 台北 (5)
  {
    name: '陳怡君',
    city: 'taipei',
    languages: ['zh', 'en', 'ja'],
    price: 2400,
    bio: '在大稻埕長大的老街說書人，帶你聽台北百年故事。',
    description:
      '從迪化街的南北貨行出發，走訪霞海城隍廟與百年茶行，認識大稻埕的茶葉與布匹貿易史。中午在永樂市場吃小吃，下午沿大稻埕碼頭的河濱步道散步，傍晚在淡水河畔看夕陽，為這趟老城散步收尾。',
  },
  {
    name: '林志豪',
    city: 'taipei',
    languages: ['zh', 'en'],
    price: 2800,
    bio: '前夜市攤商，最懂台北街頭小吃的門道。',
    description:
      '下午四點在寧夏夜市集合，先吃蚵仔煎和豬肝湯暖胃，再搭捷運到饒河街夜市，排一顆現烤胡椒餅。中途順道參拜松山慈祐宮，全程帶你避開觀光陷阱，點到在地人真正常吃的攤位，吃不完還能打包當宵夜。',
  },
  {
    name: '黃雅婷',
    city: 'taipei',
    languages: ['zh', 'en', 'ko'],
    price: 3200,
    bio: '攝影工作者，幫你拍下最好看的台北。',
    description:
      '清晨登上象山步道，拍攝台北101與城市日出；上午到華山1914文化創意產業園區和松山文創園區掃街。下午前往西門町紅樓一帶拍街頭人像，全程提供構圖與調色建議，手機或相機都適用，行程結束後還會提供修圖小技巧。',
  },
  {
    name: '張家瑋',
    city: 'taipei',
    languages: ['zh', 'nan'],
    price: 2000,
    bio: '登山社社長，週末都在陽明山上。',
    description:
      '早上搭公車上陽明山，走七星山主峰步道登上台北最高點，中午在竹子湖吃野菜料理。下午到小油坑看硫磺噴氣孔，下山前在山腳的溫泉區泡湯放鬆。需要基本體力，雨天改走較平緩的天母古道。',
  },
  {
    name: '王詩涵',
    city: 'taipei',
    languages: ['zh', 'ja'],
    price: 3600,
    bio: '曾在東京留學，用日語細說台灣文物。',
    description:
      '上午在國立故宮博物院慢慢看翠玉白菜與宋代書畫，中午到士林吃小吃。下午走訪艋舺龍山寺與剝皮寮歷史街區，從香火與老店認識萬華的信仰和庶民生活，特別適合第一次來台北的日本旅客。',
  },

  // 新北 (4)
  {
    name: '李宗翰',
    city: 'new_taipei',
    languages: ['zh', 'en', 'ja'],
    price: 3000,
    bio: '礦工的孫子，熟悉九份金瓜石的山城往事。',
    description:
      '上午到金瓜石黃金博物館了解採金歷史，戴上安全帽走進本山五坑體驗礦工生活。午後步行到九份老街喝茶、吃芋圓，刻意避開最擁擠的時段，傍晚在阿妹茶樓附近的觀景點，看山城的紅燈籠一盞盞亮起。',
  },
  {
    name: '吳佩珊',
    city: 'new_taipei',
    languages: ['zh', 'en'],
    price: 2200,
    bio: '兩個孩子的媽，最會安排親子輕旅行。',
    description:
      '早上從瑞芳搭平溪線小火車出發，沿著基隆河谷一路晃進山裡，在十分老街一起彩繪天燈寫下心願，再散步到十分瀑布。下午到菁桐車站掛竹筒許願、吃雞捲，步調輕鬆不趕路，適合帶小孩和長輩的家庭。',
  },
  {
    name: '劉俊傑',
    city: 'new_taipei',
    languages: ['zh', 'nan'],
    price: 1800,
    bio: '單車環島三次，淡水河岸是我的主場。',
    description:
      '從淡水捷運站租腳踏車，沿關渡自行車道騎到關渡宮參拜。接著搭渡輪過河到八里左岸，一路騎到十三行博物館認識史前文化。傍晚回到淡水漁人碼頭看夕陽，再吃一碗淡水名物阿給配魚丸湯。',
  },
  {
    name: '蔡宜蓁',
    city: 'new_taipei',
    languages: ['zh', 'ko', 'en'],
    price: 2600,
    bio: '在烏來山城長大，想分享泰雅族的文化。',
    description:
      '上午參觀烏來泰雅民族博物館，認識泰雅族的紋面傳統與織布技藝，中午品嚐竹筒飯和馬告香腸。下午搭觀光台車前往烏來瀑布，看瀑布從山壁傾瀉而下，最後在溫泉街泡湯，讓一天在山間慢慢結束。',
  },

  // 桃園 (1)
  {
    name: '楊惠如',
    city: 'taoyuan',
    languages: ['zh', 'hak'],
    price: 2000,
    bio: '客家媳婦，帶你認識桃園的客家與老街。',
    description:
      '上午漫步大溪老街，欣賞巴洛克式牌樓立面，走進大溪木藝生態博物館了解木器工藝，再帶一包滷得入味的大溪豆乾。下午前往龍潭，親手研磨芝麻與茶葉做一碗客家擂茶，聽長輩講庄頭的故事。',
  },

  // 新竹 (1)
  {
    name: '邱文彬',
    city: 'hsinchu',
    languages: ['zh', 'hak', 'en'],
    price: 2400,
    bio: '北埔茶農第三代，說得一口道地客家話。',
    description:
      '早上在北埔老街參觀慈天宮與金廣成古宅，品嚐帶蜜香的東方美人茶（膨風茶）。下午轉往內灣老街吃野薑花粽，搭內灣線小火車欣賞沿途山景，順便認識竹東一帶的伐木產業與客家聚落歷史。',
  },

  // 台中 (4)
  {
    name: '許嘉玲',
    city: 'taichung',
    languages: ['zh', 'en', 'ja'],
    price: 2600,
    bio: '策展人出身，帶你看台中的藝術與文創。',
    description:
      '上午探訪彩虹眷村，再到審計新村逛文創小店。中午去第四信用合作社吃冰淇淋，順道在宮原眼科挑伴手禮。下午走進國立台灣美術館看展，傍晚沿著草悟道的綠園道散步，結束輕鬆又有質感的藝文一日遊。',
  },
  {
    name: '鄭凱文',
    city: 'taichung',
    languages: ['zh', 'en'],
    price: 3000,
    bio: '咖啡師兼品茶師，一杯一杯說台中味道。',
    description:
      '從四維街的春水堂創始店聊起珍珠奶茶的由來，接著拜訪勤美誠品周邊的獨立咖啡館，學一次手沖。下午開車上新社，參觀香菇農場，並在山上的莊園邊喝咖啡邊看風景，適合喜歡慢步調的旅人。',
  },
  {
    name: '謝孟哲',
    city: 'taichung',
    languages: ['zh', 'nan'],
    price: 1800,
    bio: '土生土長台中人，三餐都在市場與夜市。',
    description:
      '早上在第二市場吃肉圓、菜頭粿等傳統早點，上午到東海大學欣賞路思義教堂與校園林蔭。傍晚轉往逢甲夜市，帶你吃大腸包小腸、地瓜球和各式創意小吃，最後喝一杯在地手搖飲，為這趟吃貨之旅收尾。',
  },
  {
    name: '郭品妤',
    city: 'taichung',
    languages: ['zh', 'en', 'de'],
    price: 3400,
    bio: '生態研究員，賞鳥十年，帶你認識台灣特有種。',
    description:
      '清晨上大雪山國家森林遊樂區，沿林道尋找帝雉、藍腹鷴等台灣特有鳥類，中午在山上吃便當。下午下山前往高美濕地，觀察招潮蟹與水鳥，等夕陽映在濕地與風車之間。全程提供雙筒望遠鏡與鳥類圖鑑。',
  },

  // 南投 (2)
  {
    name: '洪明德',
    city: 'nantou',
    languages: ['zh', 'nan', 'ja'],
    price: 2800,
    bio: '日月潭單車教練，環湖路線閉著眼都會騎。',
    description:
      '早上在向山遊客中心租單車，沿日月潭環湖自行車道騎到水社，中午到伊達邵吃邵族風味料理。下午搭船遊湖，到玄光寺吃一顆阿婆茶葉蛋，最後坐日月潭纜車俯瞰湖景，前往九族文化村看原住民歌舞表演。',
  },
  {
    name: '曾淑芬',
    city: 'nantou',
    languages: ['zh', 'en'],
    price: 2400,
    bio: '鹿谷茶農之女，從採茶到烘焙都懂。',
    description:
      '上午在溪頭自然教育園區走大學池與神木步道，享受杉林間的森林浴。下午拜訪鹿谷凍頂山的茶園，參觀揉捻與焙火流程，比較不同烘焙度的凍頂烏龍，傍晚到溪頭妖怪村逛逛、吃點小點心再下山。',
  },

  // 嘉義 (1)
  {
    name: '賴冠宇',
    city: 'chiayi',
    languages: ['zh', 'nan', 'ja'],
    price: 3200,
    bio: '阿里山鐵道迷，熟悉每一站的故事。',
    description:
      '凌晨搭祝山線小火車到觀日平台，等待雲海上的日出。接著走阿里山神木群步道與姊妹潭，聽林業鐵道的往事。下午下山途中在奮起湖老街吃鐵路便當，傍晚回到嘉義市區，吃一碗淋上油蔥的火雞肉飯。',
  },

  // 台南 (4)
  {
    name: '周郁潔',
    city: 'tainan',
    languages: ['zh', 'en', 'ja'],
    price: 2600,
    bio: '歷史系畢業，用故事串起台南四百年。',
    description:
      '上午走訪赤崁樓與祀典武廟，從荷蘭時期講到明鄭與清代的府城；午餐吃牛肉湯配碗粿。下午前往安平古堡與安平樹屋，看老榕樹如何吞沒倉庫，最後到億載金城的砲台與護城河邊散步，等待夕陽落下。',
  },
  {
    name: '葉建宏',
    city: 'tainan',
    languages: ['zh', 'nan'],
    price: 2000,
    bio: '府城老饕，一天吃八攤是基本。',
    description:
      '清晨從一碗現沖牛肉湯開始，接著在國華街一帶吃蝦仁飯、鱔魚意麵，再到康樂市場嚐棺材板。下午到神農街與正興街散步消化，喝一杯古早味紅茶，晚上若遇開市日（週四、六、日）就逛花園夜市作結。',
  },
  {
    name: '蘇曉薇',
    city: 'tainan',
    languages: ['zh', 'en', 'fr'],
    price: 3000,
    bio: '廟宇建築愛好者，帶你讀懂屋頂上的故事。',
    description:
      '上午參觀「全台首學」台南孔廟，再到大天后宮與開基天后宮，比較兩座媽祖廟的剪黏、彩繪與門神。下午學習擲筊與求籤的禮儀，並走訪附近的神桌店與糕餅舖，認識廟宇周邊的傳統行業。',
  },
  {
    name: '莊子軒',
    city: 'tainan',
    languages: ['zh', 'en'],
    price: 2400,
    bio: '七股漁村長大，熟悉潟湖與鹽田生態。',
    description:
      '上午到七股鹽山與台灣鹽博物館，了解台灣曬鹽三百年的歷史。中午在將軍漁港吃現撈海鮮，下午搭膠筏遊七股潟湖、看蚵架與紅樹林；十月到隔年四月還能到保護區，用望遠鏡觀賞成群的黑面琵鷺。',
  },

  // 高雄 (4)
  {
    name: '呂欣儀',
    city: 'kaohsiung',
    languages: ['zh', 'en', 'ko'],
    price: 2600,
    bio: '港都文青，熟悉高雄的老街區與新展覽。',
    description:
      '上午在駁二藝術特區看展、逛設計小店，搭輕軌到哈瑪星鐵道文化園區看老火車。下午登上打狗英國領事館，眺望高雄港，在西子灣看完夕陽後，到鹽埕區吃在地人從小吃到大的晚餐，再散步到愛河邊。',
  },
  {
    name: '江柏霖',
    city: 'kaohsiung',
    languages: ['zh', 'nan'],
    price: 1600,
    bio: '旗津囡仔，最適合帶全家出海邊玩。',
    description:
      '從鼓山輪渡站搭渡輪到旗津，租協力車沿海岸騎到彩虹教堂與旗津燈塔。中午在旗津老街吃現撈海鮮，下午在海水浴場玩沙、撿貝殼，行程輕鬆好走、不用趕車，適合帶小朋友和長輩同行。',
  },
  {
    name: '何佳穎',
    city: 'kaohsiung',
    languages: ['zh', 'en', 'ja', 'es'],
    price: 3400,
    bio: '會說四種語言，專門介紹台灣的宗教文化。',
    description:
      '上午到左營蓮池潭，從龍口進、虎口出走一趟龍虎塔，再參觀春秋閣與周邊廟宇。中午享用一頓素食，下午前往佛光山佛陀紀念館，認識台灣的人間佛教與寺院生活，傍晚在大佛前看夕陽後再回市區。',
  },
  {
    name: '蕭宇翔',
    city: 'kaohsiung',
    languages: ['zh', 'hak', 'en'],
    price: 2200,
    bio: '美濃客家子弟，騎單車帶你看田園。',
    description:
      '上午到美濃體驗彩繪油紙傘，再吃一碗道地的客家粄條。下午騎單車繞美濃湖與菸樓、稻田，聽菸葉產業興衰的故事。傍晚回到高雄市區，逛瑞豐夜市吃宵夜，把客家鄉村與港都夜生活一次玩遍。',
  },

  // 屏東 (1)
  {
    name: '羅國棟',
    city: 'pingtung',
    languages: ['zh', 'en'],
    price: 3800,
    bio: '潛水教練，在墾丁海邊工作十五年。',
    description:
      '上午在後壁湖跟著教練浮潛，看珊瑚礁與熱帶魚，裝備與保險都包含在內。中午在萬里桐吃海鮮，下午開車到龍磐公園看草原與崩崖，傍晚在關山看日落，晚上再逛墾丁大街，吃烤小卷與現打果汁。',
  },

  // 宜蘭 (2)
  {
    name: '高筱雯',
    city: 'yilan',
    languages: ['zh', 'ja'],
    price: 2400,
    bio: '幼教老師轉職導遊，親子行程的好夥伴。',
    description:
      '上午參觀國立傳統藝術中心，看布袋戲、動手做童玩，中午吃卜肉與三星蔥油餅。下午到羅東林業文化園區散步，看貯木池與老火車頭，晚上逛羅東夜市吃包心粉圓，步調輕鬆，很適合帶小孩的家庭。',
  },
  {
    name: '潘信良',
    city: 'yilan',
    languages: ['zh', 'en'],
    price: 2800,
    bio: '頭城漁村出身，帶你出海看龜山島。',
    description:
      '上午從烏石港搭船出海，繞行龜山島並尋找海豚與鯨魚的蹤影（賞鯨季為三月到十月）。午後到頭城老街散步，認識蘭陽平原最早的開發史，傍晚在礁溪泡湯放鬆，再吃一盤清脆的溫泉空心菜。',
  },

  // 花蓮 (4)
  {
    name: '巴奈·古拉斯',
    city: 'hualien',
    languages: ['zh', 'en'],
    price: 2800,
    bio: '阿美族人，想讓更多人認識部落的生活智慧。',
    description:
      '上午到光復的馬太鞍濕地，學習阿美族傳統的巴拉告生態捕魚法，中午吃野菜與石頭火鍋。下午拜訪部落的手工藝工作室，親手編一個小籃子，聽族人分享豐年祭的意義與部落的年齡階層制度。',
  },
  {
    name: '瓦旦·達道',
    city: 'hualien',
    languages: ['zh', 'en', 'ja'],
    price: 4200,
    bio: '太魯閣族嚮導，山林就是我的教室。',
    description:
      '清晨進入太魯閣國家公園，走砂卡礑步道看清澈的溪水，再到燕子口與九曲洞欣賞大理石峽谷。中午吃太魯閣族風味餐，下午依步道開放狀況調整路線，邊走邊聽族人狩獵、織布與山林禁忌的故事。',
  },
  {
    name: '廖偉成',
    city: 'hualien',
    languages: ['zh', 'nan'],
    price: 2000,
    bio: '每天騎車上班的花蓮人，帶你吹海風。',
    description:
      '從花蓮市區租自行車，沿著海岸自行車道騎到七星潭，看太平洋的湛藍海水與礫石海灘，途中經過四八高地的舊碉堡。下午回市區逛花蓮文化創意產業園區，晚上到東大門夜市吃原住民烤肉與各地小吃。',
  },
  {
    name: '沈語彤',
    city: 'hualien',
    languages: ['zh', 'ko', 'en'],
    price: 3200,
    bio: '旅遊攝影師，最愛台11線的海岸光線。',
    description:
      '沿著台11線一路向南，在芭崎瞭望台、石梯坪與北回歸線標誌塔停車拍照，捕捉太平洋最藍的時刻。中午在豐濱新社梯田旁吃海稻米便當，下午選一處無人的礫石灘，拍攝浪花與長曝光作品。',
  },

  // 台東 (1)
  {
    name: '馬耀·拉飛',
    city: 'taitung',
    languages: ['zh', 'en'],
    price: 2600,
    bio: '在縱谷種稻的阿美族青年，兼職導遊。',
    description:
      '早上在鹿野高台眺望花東縱谷，夏季可看熱氣球升空。接著到池上騎單車穿越伯朗大道的稻田，中午吃池上便當。下午拜訪部落的小米田，晚上回台東市區，在鐵花村聽原住民歌手現場演唱。',
  },

  // 基隆 (1)
  {
    name: '彭冠廷',
    city: 'keelung',
    languages: ['zh', 'nan', 'en'],
    price: 2000,
    bio: '基隆港邊長大，雨都的晴天由我帶路。',
    description:
      '上午在和平島地質公園看豆腐岩與蕈狀岩，再到正濱漁港拍彩色屋倒影。午後登上中正公園俯瞰基隆港，傍晚走進奠濟宮前的廟口夜市，吃鼎邊趖、營養三明治和泡泡冰，體驗港都熱鬧的夜晚。',
  },

  // 澎湖 (1)
  {
    name: '顏子傑',
    city: 'penghu',
    languages: ['zh', 'nan'],
    price: 3000,
    bio: '澎湖在地漁家子弟，熟悉每一座小島。',
    description:
      '上午包車走訪澎湖跨海大橋與二崁古厝，認識以咕咾石砌成的傳統建築。中午吃海鮮和仙人掌冰，下午到山水沙灘玩水、看潮間帶生物，傍晚回到馬公，參拜全台最古老的媽祖廟澎湖天后宮，再逛中央老街。',
  },
];

// ---------------------------------------------------------------------------
// Travelers (12)
// ---------------------------------------------------------------------------

export const demoTravelers: ReadonlyArray<DemoTraveler> = [
  { name: '陳品妍', emailLocalPart: 'pinyen.chen' },
  { name: '林冠霖', emailLocalPart: 'kuanlin.lin' },
  { name: '黃詠晴', emailLocalPart: 'yungching.huang' },
  { name: '吳承翰', emailLocalPart: 'chenghan.wu' },
  { name: '佐藤 美咲', emailLocalPart: 'misaki.sato' },
  { name: '鈴木 大輔', emailLocalPart: 'daisuke.suzuki' },
  { name: '高橋 結衣', emailLocalPart: 'yui.takahashi' },
  { name: '山本 健太', emailLocalPart: 'kenta.yamamoto' },
  { name: 'Emily Carter', emailLocalPart: 'emily.carter' },
  { name: 'Lukas Becker', emailLocalPart: 'lukas.becker' },
  { name: 'Sophie Martin', emailLocalPart: 'sophie.martin' },
  { name: 'Olivia Bennett', emailLocalPart: 'olivia.bennett' },
];

// ---------------------------------------------------------------------------
// Reviews
// ---------------------------------------------------------------------------

/** Comments a traveler writes about a guide after a tour (24). */
export const travelerReviewComments: ReadonlyArray<DemoReviewComment> = [
  { rating: 5, comment: '導遊對老街的歷史如數家珍，連巷子裡的店家老闆都熱情打招呼。走完一天，對這座城市的印象完全不一樣了！' },
  { rating: 5, comment: '帶著兩個小孩參加，導遊很有耐心，還準備了小遊戲讓孩子不無聊。行程節奏剛好，長輩也走得很輕鬆。' },
  { rating: 5, comment: '吃了整整一天，每一攤都是在地人才知道的店。導遊還先問過我們的忌口，非常貼心。' },
  { rating: 4, comment: '風景很漂亮，解說也很用心。唯一可惜的是午餐的餐廳人太多，等了快半小時。' },
  { rating: 5, comment: '第一次來台灣，導遊英文很流利，幫我們點菜、買車票都很順利。很推薦給外國朋友！' },
  { rating: 5, comment: '清晨出發看日出非常值得。導遊對拍照角度很有研究，幫我們拍了好多張美照。' },
  { rating: 4, comment: '步道比想像中陡，但導遊一路提醒補水和休息，最後順利登頂。建議體力普通的人穿好走一點的鞋。' },
  { rating: 3, comment: '導遊人很好，但行程排得太滿，每個景點都只停留一下，整天有點趕。' },
  { rating: 5, comment: '原本只是想看看廟，結果學到好多信仰和建築的知識，還親自體驗了擲筊，很難忘。' },
  { rating: 4, comment: '沿著河岸騎單車看夕陽很舒服，車況也很好。下次想挑戰更長的路線。' },
  { rating: 5, comment: '導遊會說日文，爸媽第一次出國也玩得很安心。謝謝一路上的照顧！' },
  { rating: 2, comment: '集合時導遊遲到將近四十分鐘，事前也沒有通知。後面的解說還可以，但整體體驗打了折扣。' },
  { rating: 5, comment: '部落的故事聽得很感動，午餐的野菜料理也很特別。這是整趟台灣旅行最有意義的一天。' },
  { rating: 4, comment: '茶園風景和品茶體驗都很棒，學會分辨不同烘焙程度的烏龍茶。只是山路彎多，有點暈車。' },
  { rating: 5, comment: '夜市攻略超實用！導遊帶我們錯開排隊人潮，一個晚上吃了十幾樣小吃。' },
  { rating: 3, comment: '內容不錯，但導遊講解時有點小聲，在人多的地方常常聽不清楚。' },
  { rating: 5, comment: '當天突然下大雨，導遊馬上把行程改成室內景點，安排得很順暢，完全沒浪費時間。' },
  { rating: 4, comment: '賞鳥行程很專業，還借我們望遠鏡。可惜當天運氣不好，最想看的鳥沒有出現。' },
  { rating: 5, comment: '從集合到解散都很準時，出發前也用訊息確認好所有細節，是很專業的導遊。' },
  { rating: 4, comment: '每間咖啡館都很有特色，導遊對手沖也很懂。如果能在最後一間店多待一會兒就更好了。' },
  { rating: 5, comment: '浮潛時導遊一直在旁邊照顧，第一次下水的朋友也不害怕。海裡的珊瑚超漂亮！' },
  { rating: 3, comment: '景點本身很美，但實際路線和介紹上寫的不太一樣，臨時少去了一站，希望能事先說明。' },
  { rating: 5, comment: '導遊分享了很多自己小時候的故事，讓老城區變得很有溫度。下次來還要找同一位導遊。' },
  { rating: 4, comment: '價格合理，行程內容豐富。中午那碗牛肉湯是這趟旅程吃過最好吃的一碗。' },
];

/** Comments a guide writes about a traveler after a tour (12). */
export const guideReviewComments: ReadonlyArray<DemoReviewComment> = [
  { rating: 5, comment: '非常準時，還提早十分鐘到集合地點。對在地文化很有興趣，問了很多好問題，帶起來很愉快。' },
  { rating: 5, comment: '一家人都很有禮貌，小朋友也很守秩序，是很棒的旅伴。' },
  { rating: 4, comment: '溝通順暢，行程中配合度很高。只是臨時多了一位同行者，下次請提早告知。' },
  { rating: 5, comment: '出發前就把飲食禁忌和體力狀況說清楚，讓我能安排最適合的路線，謝謝！' },
  { rating: 5, comment: '對拍照很有熱情，願意早起等日出，一整天都玩得很開心。歡迎再來！' },
  { rating: 4, comment: '人很親切，但集合時遲到了約十五分鐘，後面的行程稍微壓縮了一些。' },
  { rating: 5, comment: '很尊重部落的規矩，拍照前都會先詢問，族人也很喜歡他們。' },
  { rating: 5, comment: '登山裝備準備齊全，一路都遵守安全指示，是讓人很放心的旅客。' },
  { rating: 3, comment: '行程中多次要求臨時加景點，時間上有點難安排，不過整體還算愉快。' },
  { rating: 5, comment: '非常有禮貌，結束時還送了家鄉的小點心，讓我很感動。' },
  { rating: 4, comment: '很好相處，也很願意嘗試各種小吃。下次記得帶雨具會更好。' },
  { rating: 5, comment: '準時、友善又守約，預訂資訊填寫得很完整，合作起來非常順利。' },
];

// ---------------------------------------------------------------------------
// Home-page banners (3)
// ---------------------------------------------------------------------------

export const demoBanners: ReadonlyArray<DemoBanner> = [
  {
    linkUrl: '/guides',
    hue: 205,
    scene: 'city',
    text: {
      'zh-TW': {
        title: '跟著在地人，走出不一樣的台灣',
        subtitle: '從台北老街到墾丁海岸，找一位最懂當地的導遊，預約專屬你的一日行程。',
      },
      en: {
        title: 'See Taiwan through local eyes',
        subtitle: "From Taipei's old streets to the Kenting coast, book a day out with a guide who calls the place home.",
      },
      ja: {
        title: '地元ガイドと歩く、もうひとつの台湾',
        subtitle: '台北の老街から墾丁の海岸まで。その土地を知り尽くしたガイドと、あなただけの一日を。',
      },
    },
  },
  {
    linkUrl: '/guides?city=hualien',
    hue: 170,
    scene: 'coast',
    text: {
      'zh-TW': {
        title: '花東慢旅行',
        subtitle: '太魯閣峽谷、七星潭的海與縱谷稻浪，讓花蓮、台東的導遊帶你慢慢走。',
      },
      en: {
        title: 'Slow down on the east coast',
        subtitle: 'Taroko Gorge, the pebble beach at Qixingtan and the rice fields of the East Rift Valley, with Hualien and Taitung guides leading the way.',
      },
      ja: {
        title: '東海岸でゆったり旅',
        subtitle: '太魯閣渓谷、七星潭の海、花東縦谷の田園風景。花蓮・台東のガイドがご案内します。',
      },
    },
  },
  {
    linkUrl: '/guides?city=tainan',
    hue: 28,
    scene: 'market',
    text: {
      'zh-TW': {
        title: '府城美食一日遊',
        subtitle: '清晨牛肉湯、午後古早味紅茶、夜裡花園夜市，跟著台南老饕吃遍古都。',
      },
      en: {
        title: 'Eat your way through Tainan',
        subtitle: 'Beef soup at dawn, old-style black tea in the afternoon and the Garden Night Market after dark, all with a local food lover.',
      },
      ja: {
        title: '台南グルメ食べ歩き',
        subtitle: '朝の牛肉湯から夜の花園夜市まで。地元の食通と一緒に、古都の味をめぐる一日。',
      },
    },
  },
];

// ---------------------------------------------------------------------------
// Legal documents (version 1.0.0, last updated 2025-06-03)
// ---------------------------------------------------------------------------

export const demoTerms: Record<DemoTermsKind, DemoTermsDocument> = {
  terms: {
    'zh-TW': {
      title: '服務條款',
      content: `歡迎使用旅遊助手（以下稱「本平台」）。註冊或使用本平台，即表示您已閱讀並同意本條款。

## 1. 服務說明

本平台協助旅客與台灣各地的在地導遊媒合。旅客可以瀏覽導遊介紹、送出預約申請，並在行程結束後留下評價。本平台**不是旅行社**，行程由您預約的導遊實際提供。

## 2. 使用者義務

- 註冊時提供真實、正確的資料，並妥善保管帳號密碼。
- 不得冒用他人身分、張貼不實評價，或利用本平台從事違法行為。
- 導遊須完成身分驗證後，才能接受預約。

## 3. 服務條款

- **預約**：旅客送出申請後，須經導遊確認，預約才算成立。
- **付款**：所有價格均以新台幣（NT$）計價並含稅。
- **取消**：越接近出發日取消，可退款的比例越低，詳細規則請見預約條款。
- **導遊義務**：導遊應準時出席、依介紹內容提供服務，並合理照顧旅客安全。
- **責任**：導遊與旅客發生爭議時，本平台會協助處理；但除法律另有規定外，本平台不對行程中因第三方造成的損害負責。

## 4. 隱私權

我們如何蒐集、處理及利用您的個人資料，請參閱[隱私權政策](/privacy-policy)。

## 5. 其他條款

- 本條款以中華民國（台灣）法律為準據法，並以臺灣臺北地方法院為第一審管轄法院。
- 本平台得修改本條款；重大變更將於生效前至少 7 天在網站上公告。
- 如有任何問題，歡迎來信 [support@travel-assistant.example](mailto:support@travel-assistant.example)。
`,
    },
    en: {
      title: 'Terms of Service',
      content: `Welcome to Travel Assistant (the "Platform"). By creating an account or using the Platform, you agree to these Terms.

## 1. Service description

Travel Assistant connects travelers with independent local guides across Taiwan. Travelers can browse guide profiles, send booking requests and leave a review once a tour is over. The Platform is **not a travel agency**: each tour is run by the guide you book.

## 2. User duties

- Give accurate information when you sign up, and keep your password to yourself.
- Do not impersonate anyone, post fake reviews or use the Platform for anything unlawful.
- Guides must finish identity verification before they can accept bookings.

## 3. Service terms

- **Bookings**: a booking only becomes final once the guide accepts your request.
- **Payment**: all prices are shown and charged in New Taiwan dollars (NT$), tax included.
- **Cancellations**: the later you cancel, the smaller the refund. The full rules are set out in the Booking Terms.
- **Guide obligations**: guides must arrive on time, deliver the tour as described and take reasonable care of their travelers' safety.
- **Liability**: we will help when a traveler and a guide disagree, but unless the law says otherwise we are not liable for loss or damage caused by third parties during a tour.

## 4. Privacy

Our [Privacy Policy](/privacy-policy) explains what personal data we collect and how we use it.

## 5. Other terms

- These Terms are governed by the laws of Taiwan (Republic of China). The Taiwan Taipei District Court is the court of first instance.
- We may change these Terms. Material changes will be announced on the site at least 7 days before they take effect.
- Questions? Write to [support@travel-assistant.example](mailto:support@travel-assistant.example).
`,
    },
    ja: {
      title: '利用規約',
      content: `旅遊助手（以下「本サービス」）をご利用いただきありがとうございます。アカウントを作成し、または本サービスを利用した時点で、本規約に同意したものとみなします。

## 1. サービスの内容

本サービスは、旅行者と台湾各地の現地ガイドをつなぐマッチングサービスです。ガイドのプロフィール閲覧、予約リクエストの送信、ツアー後のレビュー投稿ができます。本サービスは**旅行会社ではありません**。ツアーは予約したガイド本人が提供します。

## 2. ユーザーの義務

- 登録時は正確な情報を入力し、パスワードを適切に管理してください。
- なりすまし、虚偽のレビューの投稿、法令に反する目的での利用を禁止します。
- ガイドは本人確認が完了するまで予約を受け付けることができません。

## 3. サービス条件

- **予約**：ガイドがリクエストを承認した時点で予約が成立します。
- **料金**：料金はすべて新台湾ドル（NT$）の税込価格で表示・請求します。
- **キャンセル**：出発日に近いほど返金額は少なくなります。詳しくは予約規約をご確認ください。
- **ガイドの責務**：ガイドは時間を守り、紹介内容どおりにツアーを行い、旅行者の安全に十分配慮するものとします。
- **責任の範囲**：旅行者とガイドの間でトラブルが生じた場合は解決に協力しますが、法令に定めがある場合を除き、ツアー中に第三者が原因で生じた損害について責任を負いません。

## 4. プライバシー

個人情報の取り扱いについては、[プライバシーポリシー](/privacy-policy)をご覧ください。

## 5. その他

- 本規約は台湾（中華民国）の法律に準拠し、台湾台北地方法院を第一審の専属管轄裁判所とします。
- 本規約は変更されることがあります。重要な変更は、効力発生の7日前までにサイト上でお知らせします。
- お問い合わせは [support@travel-assistant.example](mailto:support@travel-assistant.example) までどうぞ。
`,
    },
  },

  privacy: {
    'zh-TW': {
      title: '隱私權政策',
      content: `旅遊助手重視您的隱私。本政策說明我們如何依**個人資料保護法**蒐集、處理及利用您的個人資料。

## 我們蒐集的資料

- **帳號資料**：姓名、電子郵件，以及經雜湊處理的密碼。
- **個人檔案**：大頭照、自我介紹、使用語言；導遊另包含服務城市與價格。
- **預約紀錄**：日期、時段、人數、金額與評價內容。
- **身分驗證文件**：導遊上傳的證件影像，僅供審核使用。
- **技術紀錄**：IP 位址、瀏覽器類型與錯誤紀錄。

## 使用目的

提供並改善服務、處理預約與客服需求、審核導遊身分、防範詐欺，以及遵守法令義務。

## 保存期限

- 帳號存續期間保存您的資料；刪除帳號後，除依法須保存的交易紀錄外，將於 90 天內刪除。
- 身分驗證文件於審核完成後 30 天內刪除。
- 技術紀錄保存 180 天。

## 資料分享

我們**不會出售**您的個人資料。預約成立後，只會將必要資訊（例如姓名、人數與聯絡方式）提供給該筆預約的導遊或旅客。主機與電子郵件服務商僅在提供服務所需的範圍內處理資料。

## Cookie

我們只使用必要的 Cookie：登入狀態（session）、偏好語言，以及外觀主題（淺色／深色）。本平台不使用廣告追蹤 Cookie。

## 您的權利

依個人資料保護法第 3 條，您可以請求查詢或閱覽、製給複製本、補充或更正、停止蒐集處理或利用，以及刪除您的個人資料。

## 資料安全

所有連線皆以 HTTPS 加密，內部人員僅能依職務需要存取資料。

## 聯絡我們

如需行使權利或有任何疑問，請來信 [privacy@travel-assistant.example](mailto:privacy@travel-assistant.example)。
`,
    },
    en: {
      title: 'Privacy Policy',
      content: `Your privacy matters to us. This policy explains how Travel Assistant collects, processes and uses personal data in line with Taiwan's **Personal Data Protection Act**.

## What we collect

- **Account data**: your name, email address and a hashed version of your password.
- **Profile**: photo, self-introduction and languages; for guides, also city and price.
- **Bookings**: dates, time slots, group size, amounts and reviews.
- **ID verification documents**: images of the ID that guides upload, used only for the review process.
- **Technical logs**: IP address, browser type and error logs.

## Why we use it

To provide and improve the service, handle bookings and support requests, verify guides, prevent fraud and meet our legal obligations.

## How long we keep it

- We keep your data while your account is open. After you delete your account, we erase it within 90 days, except for transaction records the law requires us to keep.
- ID verification documents are deleted within 30 days of the review.
- Technical logs are kept for 180 days.

## Who we share it with

We **never sell** your personal data. Once a booking is confirmed, the guide or traveler on that booking receives only what they need, such as your name, group size and contact details. Our hosting and email providers process data only as far as needed to run their services.

## Cookies

We only use essential cookies: your login session, your preferred language and your theme (light or dark). We do not use advertising or tracking cookies.

## Your rights

Under Article 3 of the Personal Data Protection Act, you may ask to review your data or get a copy of it, to have it completed or corrected, to have us stop collecting, processing or using it, and to have it deleted.

## Security

All traffic is encrypted with HTTPS, and staff can only access data their work requires.

## Contact

To exercise your rights or ask a question, email [privacy@travel-assistant.example](mailto:privacy@travel-assistant.example).
`,
    },
    ja: {
      title: 'プライバシーポリシー',
      content: `旅遊助手は、お客様のプライバシーを大切にしています。本ポリシーでは、台湾の**個人資料保護法**に基づき、個人情報をどのように収集・処理・利用するかをご説明します。

## 収集する情報

- **アカウント情報**：氏名、メールアドレス、ハッシュ化したパスワード。
- **プロフィール**：顔写真、自己紹介、対応言語。ガイドの場合は活動都市と料金も含みます。
- **予約履歴**：日付、時間帯、人数、金額、レビュー内容。
- **本人確認書類**：ガイドがアップロードする身分証明書の画像。審査のためだけに使用します。
- **技術ログ**：IPアドレス、ブラウザの種類、エラーログ。

## 利用目的

サービスの提供と改善、予約やお問い合わせへの対応、ガイドの本人確認、不正利用の防止、法令上の義務の履行のために利用します。

## 保存期間

- アカウントが有効な間は情報を保存します。退会後は、法令で保存が義務付けられた取引記録を除き、90日以内に削除します。
- 本人確認書類は、審査完了から30日以内に削除します。
- 技術ログは180日間保存します。

## 第三者への提供

お客様の個人情報を**販売することはありません**。予約が成立すると、その予約のガイドまたは旅行者に、氏名・人数・連絡先など必要な情報だけをお伝えします。サーバーやメール配信の委託先は、サービス提供に必要な範囲でのみ情報を取り扱います。

## Cookie

ログイン状態（セッション）、表示言語、テーマ（ライト／ダーク）の保存に必要な Cookie のみを使用します。広告やトラッキングを目的とした Cookie は使用しません。

## お客様の権利

個人資料保護法第3条に基づき、ご自身の情報の照会・閲覧、複製の交付、補充・訂正、収集・処理・利用の停止、削除を求めることができます。

## 安全管理

通信はすべて HTTPS で暗号化し、社内での閲覧は業務上必要な範囲に限定しています。

## お問い合わせ

権利の行使やご質問は [privacy@travel-assistant.example](mailto:privacy@travel-assistant.example) までご連絡ください。
`,
    },
  },

  booking: {
    'zh-TW': {
      title: '預約條款',
      content: `本條款適用於所有透過旅遊助手預約的導遊行程。送出預約前，請先詳閱以下內容。

## 預約流程

1. 旅客選擇導遊、日期、時段與人數後，送出預約申請。
2. 導遊於 48 小時內確認或婉拒；逾時未回覆，視為婉拒。
3. 導遊確認後預約即成立，雙方都會收到通知。

## 價格與人數

- 價格一律以**新台幣**（NT$）計算，是預約**一個時段**（上午 09:00–12:00、下午 13:00–17:00 或晚上 18:00–21:00）**整團**的價格：不是每人的價格，也不因人數改變。
- 每位導遊設有每團人數上限，顯示在價格旁；預約人數不能超過這個上限。
- 除另有說明外，門票、交通與餐費由旅客自行負擔。

## 旅客取消

- 出發前 **72 小時以前**取消：全額退款。
- 出發前 72 至 24 小時之間取消：退還 50%。
- 出發前 24 小時內取消或當天未到：恕不退款。
- 寬限期：預約後 **24 小時內**取消，且距離出發還有 48 小時以上：全額退款（距離出發不到 48 小時則依上列規定）。

## 導遊取消

導遊因故取消時，旅客可獲得**全額退款**，本平台也會協助推薦其他導遊。

## 天候與不可抗力

遇颱風、豪雨、地震或政府宣布停班停課等情況，雙方可協議改期，或取消並全額退款。

## 行為與安全

請遵守導遊的安全指示及當地法令，並尊重部落與宗教場所的規範。若旅客有危險或違法行為，導遊得中止行程。

## 爭議處理

如有爭議，請於行程結束後 7 天內來信 [support@travel-assistant.example](mailto:support@travel-assistant.example)，我們會協助雙方溝通。

## 評價

行程完成後，旅客與導遊可以互相評價（1 至 5 顆星）。評價應真實、就事論事，不得含有人身攻擊。
`,
    },
    en: {
      title: 'Booking Terms',
      content: `These terms apply to every guided tour booked through Travel Assistant. Please read them before you send a request.

## How booking works

1. Choose a guide, a date, a time slot and the number of people, then send your request.
2. The guide accepts or declines within 48 hours. No answer within that time counts as a decline.
3. Once the guide accepts, the booking is confirmed and you both get a notification.

## Price and group size

- All prices are in **New Taiwan dollars (NT$)**. A guide's price is for **one slot** (a morning 09:00–12:00, an afternoon 13:00–17:00 or an evening 18:00–21:00) and the **whole group**: it is not per person and does not change with the number of people.
- Each guide sets a maximum group size, shown next to the price; a booking cannot bring more people than that.
- Unless stated otherwise, entrance tickets, transport and meals are paid by the traveler.

## Cancellation by the traveler

- More than **72 hours** before the start: full refund.
- Between 72 and 24 hours before the start: 50% refund.
- Less than 24 hours before the start, or no-show: no refund.
- Grace period: cancel within **24 hours of booking** while the tour is still at least 48 hours away: full refund (closer to the start, the rules above apply).

## Cancellation by the guide

If the guide cancels for any reason, you get a **full refund**, and we will help you find another guide.

## Weather and force majeure

In case of typhoons, heavy rain, earthquakes or an official closure of work and schools, both sides may agree to move the tour to another date, or cancel it with a full refund.

## Conduct and safety

Follow your guide's safety instructions and local laws, and respect the rules of Indigenous communities and places of worship. A guide may end a tour early if a traveler behaves dangerously or unlawfully.

## Disputes

If something goes wrong, contact [support@travel-assistant.example](mailto:support@travel-assistant.example) within 7 days of the tour and we will help both sides sort it out.

## Reviews

After a tour is completed, the traveler and the guide can rate each other from 1 to 5 stars. Reviews should be honest and stick to the facts; personal attacks are not allowed.
`,
    },
    ja: {
      title: '予約規約',
      content: `本規約は、旅遊助手を通じて予約されるすべてのガイドツアーに適用されます。予約リクエストを送る前に必ずお読みください。

## 予約の流れ

1. ガイド、日付、時間帯、人数を選んで予約リクエストを送信します。
2. ガイドは48時間以内に承認または辞退します。期限内に返答がない場合は辞退とみなします。
3. ガイドが承認した時点で予約が成立し、双方に通知が届きます。

## 料金と人数

- 料金はすべて**新台湾ドル**（NT$）で計算します。ガイドの料金は、午前（09:00〜12:00）・午後（13:00〜17:00）・夜（18:00〜21:00）のいずれか**1枠**を**グループ全体**で予約したときの金額です。1人あたりではなく、人数によって変わりません。
- 1グループの最大人数はガイドごとに決まっていて、料金の横に表示されます。それを超える人数では予約できません。
- 特に記載がない限り、入場料・交通費・食事代は旅行者のご負担となります。

## 旅行者によるキャンセル

- 開始の**72時間前まで**：全額返金。
- 開始の72時間前から24時間前まで：50%を返金。
- 開始24時間前を過ぎてからのキャンセル、または無連絡の不参加：返金なし。
- 猶予期間：予約から**24時間以内**のキャンセルで、出発まで48時間以上ある場合：全額返金（出発まで48時間を切っている場合は上記のとおり）。

## ガイドによるキャンセル

ガイドの都合でキャンセルとなった場合は**全額を返金**し、ほかのガイドのご紹介もお手伝いします。

## 天候・不可抗力

台風、大雨、地震、または行政による休業・休校の発表があった場合は、双方の合意により日程を変更するか、全額返金のうえキャンセルできます。

## マナーと安全

ガイドの安全上の指示と現地の法令を守り、先住民族の集落や宗教施設のルールを尊重してください。危険な行為や違法な行為があった場合、ガイドはツアーを中止できます。

## トラブルの解決

問題が生じた場合は、ツアー終了後7日以内に [support@travel-assistant.example](mailto:support@travel-assistant.example) までご連絡ください。双方のやり取りをサポートします。

## レビュー

ツアー完了後、旅行者とガイドはお互いを1〜5つ星で評価できます。レビューは事実に基づいて率直に書き、個人攻撃は控えてください。
`,
    },
  },
};

// ---------------------------------------------------------------------------
// Kinds of tour, and reviews written for each kind (issue 9: a night-market guide is reviewed for food,
// not for cafés). `demoGuideTours[i]` is the kind of demoGuides[i]'s tour. Reviews are user content: each
// stays in its reviewer's language (zh-TW, en or ja); the seed gives an en or ja review only to a guide who
// speaks it, writes it under a traveler of that language and never uses one comment twice on a guide.
// ---------------------------------------------------------------------------

export const TOUR_KINDS = ['heritage', 'food', 'photo', 'hiking', 'family', 'cycling', 'indigenous', 'tea', 'art', 'wildlife', 'temple', 'sea'] as const;
export type TourKind = (typeof TOUR_KINDS)[number];

export const demoGuideTours: ReadonlyArray<TourKind> = [
  'heritage', 'food', 'photo', 'hiking', 'heritage', // 台北
  'heritage', 'family', 'cycling', 'indigenous', // 新北
  'heritage', 'tea', // 桃園, 新竹
  'art', 'tea', 'food', 'wildlife', // 台中
  'cycling', 'tea', // 南投
  'hiking', // 嘉義
  'heritage', 'food', 'temple', 'wildlife', // 台南
  'art', 'family', 'temple', 'cycling', // 高雄
  'sea', // 屏東
  'family', 'sea', // 宜蘭
  'indigenous', 'hiking', 'cycling', 'photo', // 花蓮
  'indigenous', // 台東
  'sea', // 基隆
  'sea', // 澎湖
];

/** Which of the generated scenes (app/services/platform/generated-images.server.ts) fits each kind of tour. */
export const tourScenes: Record<TourKind, ReadonlyArray<Scene>> = {
  heritage: ['city', 'temple', 'market'],
  food: ['market', 'city', 'market'],
  photo: ['city', 'coast', 'mountains'],
  hiking: ['mountains', 'forest', 'mountains'],
  family: ['fields', 'coast', 'forest'],
  cycling: ['fields', 'coast', 'fields'],
  indigenous: ['forest', 'fields', 'mountains'],
  tea: ['tea', 'mountains', 'forest'],
  art: ['city', 'city', 'market'],
  wildlife: ['forest', 'coast', 'mountains'],
  temple: ['temple', 'temple', 'city'],
  sea: ['coast', 'coast', 'mountains'],
};

export type ReviewLanguage = 'zh-TW' | 'en' | 'ja';
export type DemoTourReview = DemoReviewComment & { lang: ReviewLanguage };

/** The travelers of demoTravelers who write in each language (by index). */
export const travelerLanguages: Record<ReviewLanguage, readonly number[]> = { 'zh-TW': [0, 1, 2, 3], ja: [4, 5, 6, 7], en: [8, 9, 10, 11] };

export const tourReviews: Record<TourKind, ReadonlyArray<DemoTourReview>> = {
  heritage: [
    { lang: 'zh-TW', rating: 5, comment: '導遊對老街的歷史如數家珍，連巷子裡的店家老闆都熱情打招呼。走完一天，對這座城市的印象完全不一樣了！' },
    { lang: 'zh-TW', rating: 5, comment: '導遊分享了很多自己小時候的故事，讓老城區變得很有溫度。下次來還要找同一位導遊。' },
    { lang: 'zh-TW', rating: 4, comment: '老房子的故事講得很生動，只是中午的小吃店人太多，等了快半小時。' },
    { lang: 'zh-TW', rating: 3, comment: '內容不錯，但導遊講解時有點小聲，在人多的老街上常常聽不清楚。' },
    { lang: 'en', rating: 5, comment: 'We would have walked past half of these old shopfronts without noticing them. Our guide brought every street to life.' },
    { lang: 'ja', rating: 5, comment: '古い街並みの歴史をとても分かりやすく説明してくれました。地元の人しか知らないお店にも寄れて大満足です。' },
  ],
  food: [
    { lang: 'zh-TW', rating: 5, comment: '夜市攻略超實用！導遊帶我們錯開排隊人潮，一個晚上吃了十幾樣小吃。' },
    { lang: 'zh-TW', rating: 5, comment: '吃了整整一天，每一攤都是在地人才知道的店。導遊還先問過我們的忌口，非常貼心。' },
    { lang: 'zh-TW', rating: 4, comment: '份量建議很到位，大家分著吃才吃得完。只是最後一攤排隊排太久，有點累。' },
    { lang: 'en', rating: 5, comment: 'Oyster omelette, pepper buns, peanut ice cream rolls: I would never have ordered half of this alone. Come hungry!' },
    { lang: 'en', rating: 4, comment: 'Great food and a great guide. It gets very crowded after 7 pm, so the earlier start they suggested was a good call.' },
    { lang: 'ja', rating: 5, comment: '屋台の注文の仕方から食べ方まで教えてもらい、夜市を存分に楽しめました。胡椒餅が最高でした！' },
  ],
  photo: [
    { lang: 'zh-TW', rating: 5, comment: '清晨出發看日出非常值得。導遊對拍照角度很有研究，幫我們拍了好多張美照。' },
    { lang: 'zh-TW', rating: 4, comment: '每個拍照點的光線都算得剛剛好，只是中午那段移動時間比較長。' },
    { lang: 'zh-TW', rating: 5, comment: '第一次用手動模式拍照，導遊一步一步教，回家看照片超有成就感。' },
    { lang: 'en', rating: 5, comment: 'Knew exactly where to stand and when the light would be right. I came home with the best photos of my whole trip.' },
    { lang: 'ja', rating: 4, comment: '撮影スポットの選び方が素晴らしかったです。天気が少し曇りだったのが残念でした。' },
  ],
  hiking: [
    { lang: 'zh-TW', rating: 4, comment: '步道比想像中陡，但導遊一路提醒補水和休息，最後順利登頂。建議體力普通的人穿好走一點的鞋。' },
    { lang: 'zh-TW', rating: 5, comment: '山上的植物和地質都講得很清楚，原來走山路也可以學這麼多。' },
    { lang: 'zh-TW', rating: 5, comment: '天氣變化很快，導遊提早判斷改走另一條路線，安全又看到了雲海。' },
    { lang: 'en', rating: 5, comment: 'Steady pace, good safety briefing and the view from the top was worth every step. Bring layers, it gets cold up there.' },
    { lang: 'ja', rating: 5, comment: '山道は少しきつかったですが、こまめに休憩を取ってくれたので安心して歩けました。雲海が本当に美しかったです。' },
    { lang: 'zh-TW', rating: 3, comment: '風景很美，但集合時間太早，而且前一天才通知要帶頭燈，準備得有點匆忙。' },
  ],
  family: [
    { lang: 'zh-TW', rating: 5, comment: '帶著兩個小孩參加，導遊很有耐心，還準備了小遊戲讓孩子不無聊。行程節奏剛好，長輩也走得很輕鬆。' },
    { lang: 'zh-TW', rating: 5, comment: '孩子們玩得不想回家，導遊對小朋友很有一套，爸媽也能好好休息。' },
    { lang: 'zh-TW', rating: 4, comment: '行程安排很適合親子，只是午餐的餐廳沒有兒童座椅，下次希望能先確認。' },
    { lang: 'en', rating: 5, comment: 'Our kids (5 and 8) loved every minute. Plenty of breaks, snacks and hands-on things to do. Highly recommended for families.' },
    { lang: 'ja', rating: 5, comment: '子ども連れでも無理のないペースで、親子ともに楽しめました。ガイドさんが子どもにとても優しかったです。' },
  ],
  cycling: [
    { lang: 'zh-TW', rating: 4, comment: '沿著河岸騎單車看夕陽很舒服，車況也很好。下次想挑戰更長的路線。' },
    { lang: 'zh-TW', rating: 5, comment: '導遊會配合大家的速度，中途停下來講解地方故事，騎完一點都不累。' },
    { lang: 'zh-TW', rating: 5, comment: '稻田間騎車的風景太療癒了，租車、安全帽都幫我們準備好。' },
    { lang: 'en', rating: 5, comment: 'Easy, flat route with stunning views. The bikes were in great shape and our guide knew all the best snack stops.' },
    { lang: 'ja', rating: 4, comment: '景色がとても良く、自転車も快適でした。日差しが強いので帽子と日焼け止めは必須です。' },
    { lang: 'zh-TW', rating: 3, comment: '路線很漂亮，但當天風很大，導遊沒有調整行程，騎得有點辛苦。' },
  ],
  indigenous: [
    { lang: 'zh-TW', rating: 5, comment: '部落的故事聽得很感動，午餐的野菜料理也很特別。這是整趟台灣旅行最有意義的一天。' },
    { lang: 'zh-TW', rating: 5, comment: '親手體驗傳統工藝，也聽到很多課本上學不到的生活智慧，很推薦。' },
    { lang: 'zh-TW', rating: 4, comment: '內容很豐富，只是部落的路比較不好走，建議穿防滑的鞋子。' },
    { lang: 'en', rating: 5, comment: 'A warm, personal introduction to the community. Hearing the stories from someone who grew up there made all the difference.' },
    { lang: 'ja', rating: 5, comment: '部落の暮らしや文化を丁寧に紹介してもらい、とても貴重な体験になりました。料理もおいしかったです。' },
  ],
  tea: [
    { lang: 'zh-TW', rating: 4, comment: '茶園風景和品茶體驗都很棒，學會分辨不同烘焙程度的烏龍茶。只是山路彎多，有點暈車。' },
    { lang: 'zh-TW', rating: 5, comment: '從採茶講到焙火，一口一口喝出差別，買回家的茶葉都知道怎麼泡了。' },
    { lang: 'zh-TW', rating: 4, comment: '每間咖啡館和茶行都很有特色，導遊對手沖也很懂。如果能在最後一間店多待一會兒就更好了。' },
    { lang: 'en', rating: 5, comment: 'I learned more about oolong in one afternoon than in years of drinking it. Beautiful tea fields, too.' },
    { lang: 'ja', rating: 5, comment: '茶畑の景色が美しく、焙煎の違いを飲み比べできたのが楽しかったです。お土産選びも手伝ってもらいました。' },
  ],
  art: [
    { lang: 'zh-TW', rating: 5, comment: '導遊對每個展覽和老建築的改造都講得很清楚，逛起來比自己來有趣太多。' },
    { lang: 'zh-TW', rating: 4, comment: '文創園區和小店很好逛，只是週末人潮很多，拍照要排隊。' },
    { lang: 'zh-TW', rating: 5, comment: '跟著導遊走進好幾間我自己絕對找不到的小藝廊，收穫滿滿。' },
    { lang: 'en', rating: 5, comment: 'A thoughtful mix of galleries, design shops and old neighbourhoods. Our guide clearly knows the local art scene.' },
    { lang: 'ja', rating: 4, comment: 'アートスポットをたくさん回れて楽しかったです。少し歩く距離が長いので歩きやすい靴がおすすめです。' },
  ],
  wildlife: [
    { lang: 'zh-TW', rating: 4, comment: '賞鳥行程很專業，還借我們望遠鏡。可惜當天運氣不好，最想看的鳥沒有出現。' },
    { lang: 'zh-TW', rating: 5, comment: '濕地的招潮蟹和候鳥都看到了，導遊講解生態的方式連小孩都聽得懂。' },
    { lang: 'zh-TW', rating: 5, comment: '一大早就看到特有種的鳥，導遊聽叫聲就知道是哪一種，太厲害了。' },
    { lang: 'en', rating: 5, comment: 'Saw three endemic species before breakfast. Patient, knowledgeable and had spare binoculars for everyone.' },
    { lang: 'ja', rating: 4, comment: '自然や生き物について詳しく教えてもらえました。朝が早いので前日はしっかり休むのがおすすめです。' },
  ],
  temple: [
    { lang: 'zh-TW', rating: 5, comment: '原本只是想看看廟，結果學到好多信仰和建築的知識，還親自體驗了擲筊，很難忘。' },
    { lang: 'zh-TW', rating: 5, comment: '屋頂上的剪黏和門神原來有這麼多故事，導遊講得生動又有趣。' },
    { lang: 'zh-TW', rating: 3, comment: '解說很專業，但行程排得太滿，每間廟都只停留一下，整天有點趕。' },
    { lang: 'en', rating: 5, comment: 'Our guide explained the rituals respectfully and patiently. Casting the moon blocks ourselves was a highlight.' },
    { lang: 'ja', rating: 5, comment: '台湾の信仰や寺院建築について詳しく知ることができました。日本語の説明がとても丁寧でした。' },
  ],
  sea: [
    { lang: 'zh-TW', rating: 5, comment: '浮潛時導遊一直在旁邊照顧，第一次下水的朋友也不害怕。海裡的珊瑚超漂亮！' },
    { lang: 'zh-TW', rating: 5, comment: '出海看到一大群海豚，導遊對海象和安全都很謹慎，玩得很放心。' },
    { lang: 'zh-TW', rating: 2, comment: '集合時導遊遲到將近四十分鐘，事前也沒有通知。後面的行程還可以，但整體體驗打了折扣。' },
    { lang: 'zh-TW', rating: 4, comment: '海邊風景很美，現撈海鮮也好吃，只是船上有點晃，容易暈船的人記得先吃藥。' },
    { lang: 'en', rating: 5, comment: 'Crystal clear water and a guide who made the nervous swimmers in our group feel completely safe.' },
    { lang: 'ja', rating: 4, comment: '海がとてもきれいで楽しめました。風が強い日だったので、船酔いしやすい人は酔い止めを持って行くと安心です。' },
  ],
};

/**
 * What a photo taken in each city may show (issue 19: no Taipei 101 skyline on a Tainan guide). Only Taipei has
 * the skyline with the tall tower; other big cities have an ordinary skyline; the rest none.
 */
export const cityScenes: Record<CityCode, ReadonlyArray<Scene>> = {
  taipei: ['tower_city', 'temple', 'market', 'mountains', 'tea'],
  new_taipei: ['coast', 'mountains', 'market', 'tea', 'temple', 'forest'],
  keelung: ['coast', 'market', 'temple'],
  taoyuan: ['city', 'fields', 'temple', 'market', 'mountains'],
  hsinchu: ['city', 'tea', 'fields', 'mountains', 'market'],
  taichung: ['city', 'market', 'fields', 'temple', 'mountains'],
  nantou: ['mountains', 'tea', 'forest', 'fields'],
  chiayi: ['mountains', 'forest', 'tea', 'market', 'fields'],
  tainan: ['temple', 'market', 'fields', 'coast'],
  kaohsiung: ['city', 'coast', 'market', 'temple', 'mountains'],
  pingtung: ['coast', 'fields', 'forest', 'mountains', 'market'],
  yilan: ['fields', 'coast', 'mountains', 'market', 'forest'],
  hualien: ['mountains', 'coast', 'forest', 'fields'],
  taitung: ['coast', 'fields', 'mountains', 'forest'],
  penghu: ['coast', 'temple', 'fields'],
};

/**
 * The scenes of a demo guide's photos: what their kind of tour shows (tourScenes), where their city has it
 * (a skyline is Taipei's tower skyline in Taipei); otherwise one of the city's own scenes. Deterministic.
 */
export function guidePhotoScenes(tour: TourKind, city: CityCode, count: number): Scene[] {
  const own = cityScenes[city];
  return Array.from({ length: count }, (_, p) => {
    const wanted = tourScenes[tour][p % tourScenes[tour].length]!;
    const scene = wanted === 'city' && own.includes('tower_city') ? 'tower_city' : wanted;
    return own.includes(scene) ? scene : own[p % own.length]!;
  });
}

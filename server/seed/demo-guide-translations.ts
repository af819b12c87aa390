/**
 * Demo guides' headlines and introductions in English and Japanese (issue 9: guides in the reader's language),
 * by the guide's name in demo-content.ts. Most guides have both; a few write only in 中文, so readers also see
 * the "written in 中文" note. Data only.
 */
export type DemoGuideTranslation = Partial<Record<'en' | 'ja', { headline: string; description: string }>>;

export const demoGuideTranslations: Readonly<Record<string, DemoGuideTranslation>> = {
  陳怡君: {
    en: { headline: 'An old-town storyteller raised in Dadaocheng, with a century of Taipei stories.', description: 'We start among the dried-goods shops of Dihua Street, visit Xiahai City God Temple and a century-old tea house, and learn how tea and cloth made Dadaocheng rich. Lunch is street food at Yongle Market; in the afternoon we stroll the riverside to Dadaocheng Wharf and end with the sunset over the Tamsui River.' },
    ja: { headline: '大稲埕育ちの語り部が、台北百年の物語をご案内します。', description: '迪化街の乾物問屋から出発し、霞海城隍廟と老舗の茶行を訪ね、茶と布の交易で栄えた大稲埕の歴史をたどります。昼は永楽市場で小吃、午後は大稲埕埠頭の河岸を歩き、淡水河の夕日で締めくくります。' },
  },
  林志豪: {
    en: { headline: 'A former night-market vendor who knows every trick of Taipei street food.', description: 'We meet at Ningxia Night Market at 4 pm for oyster omelette and pork liver soup, then take the MRT to Raohe Street for a fresh pepper bun, with a stop at Songshan Ciyou Temple. I steer you past the tourist traps to the stalls locals actually eat at.' },
    ja: { headline: '元夜市の屋台店主。台北の屋台グルメの極意をお伝えします。', description: '午後4時に寧夏夜市に集合し、牡蠣オムレツと豚レバースープで腹ごしらえ。MRTで饒河街夜市へ移動し、焼きたての胡椒餅を。松山慈祐宮にも立ち寄り、観光客向けではない地元の人気屋台だけをご案内します。' },
  },
  黃雅婷: {
    en: { headline: 'A photographer who takes the best pictures of Taipei — of you.', description: 'At dawn we climb Elephant Mountain for Taipei 101 at sunrise, then shoot the streets of Huashan 1914 and Songshan Cultural Park. In the afternoon: street portraits around the Red House in Ximending, with tips on composition and colour for phones and cameras alike.' },
    ja: { headline: 'フォトグラファーが、いちばん素敵な台北を撮影します。', description: '早朝に象山に登り、台北101と朝日を撮影。午前は華山1914文化創意園区と松山文創園区でスナップ、午後は西門町の紅楼周辺でポートレートを。スマホでもカメラでも使える構図と色づくりのコツをお伝えします。' },
  },
  張家瑋: {
    en: { headline: 'Head of a hiking club; my weekends are spent on Yangmingshan.', description: 'We take the bus up Yangmingshan and climb the Qixing main peak, the highest point in Taipei, then eat mountain greens at Zhuzihu. After the sulphur vents at Xiaoyoukeng we soak in a hot spring before heading down. Some fitness needed; on rainy days we take the gentler Tianmu Trail.' },
    ja: { headline: '登山サークルの部長。週末はいつも陽明山にいます。', description: 'バスで陽明山へ上がり、台北最高峰の七星山主峰に登ります。竹子湖で山菜料理を味わい、小油坑の硫黄噴気孔を見学したあと、ふもとの温泉でひと休み。ある程度の体力が必要です。雨の日はゆるやかな天母古道に変更します。' },
  },
  王詩涵: {
    ja: { headline: '東京に留学していたガイドが、日本語で台湾の文物を丁寧に解説します。', description: '午前は国立故宮博物院で翠玉白菜や宋代の書画をじっくり鑑賞し、昼は士林で小吃を。午後は艋舺龍山寺と剥皮寮歴史街区を歩き、萬華の信仰と庶民の暮らしに触れます。初めて台北を訪れる方に特におすすめです。' },
  },
  李宗翰: {
    en: { headline: "A miner's grandson who knows the mountain-town stories of Jiufen and Jinguashi.", description: "We begin at the Gold Museum in Jinguashi and walk into Benshan Fifth Tunnel in a hard hat. In the afternoon we stroll Jiufen Old Street for tea and taro balls, avoiding the busiest hours, and watch the red lanterns light up from a lookout near A-Mei Tea House." },
    ja: { headline: '炭鉱夫の孫。九份・金瓜石の山あいの町の昔話に詳しいです。', description: '金瓜石の黄金博物館で採金の歴史を学び、ヘルメットをかぶって本山五坑へ。午後は混雑する時間を避けて九份老街でお茶と芋圓を楽しみ、夕方は阿妹茶樓近くの展望スポットで赤い提灯が灯る様子を眺めます。' },
  },
  吳佩珊: {
    en: { headline: 'A mother of two who plans the easiest family day trips.', description: 'We ride the little Pingxi Line train up the Keelung River valley, paint a sky lantern together at Shifen Old Street and walk to Shifen Waterfall. In the afternoon we hang bamboo wishes at Jingtong Station. An unhurried pace for children and grandparents.' },
    ja: { headline: '二児の母が、家族向けのゆったり旅をご提案します。', description: '瑞芳から平渓線のローカル列車に乗り、十分老街で天灯に願いごとを書いて十分瀑布まで散歩。午後は菁桐駅で竹筒の願掛けをします。急がないペースなので、お子さま連れやご年配の方にもぴったりです。' },
  },
  劉俊傑: {
    en: { headline: 'Three times round Taiwan by bike; the Tamsui riverside is my home turf.', description: 'We rent bikes at Tamsui MRT station and ride the Guandu cycle path to Guandu Temple, take the ferry across to Bali and ride on to the Shihsanhang Museum of Archaeology. Back at Fisherman\'s Wharf for the sunset, with Tamsui\'s famous a-gei and fish-ball soup.' },
    ja: { headline: '自転車で台湾一周を3回。淡水の河岸は私のホームグラウンドです。', description: '淡水駅で自転車を借り、関渡の自転車道を走って関渡宮へ。フェリーで対岸の八里に渡り、十三行博物館で先史文化に触れます。夕方は漁人碼頭で夕日を眺め、名物の阿給と魚丸スープを。' },
  },
  蔡宜蓁: {
    en: { headline: 'Raised in the mountain town of Wulai, sharing Atayal culture.', description: 'We visit the Wulai Atayal Museum to learn about facial tattoos and weaving, then eat bamboo-tube rice and maqaw sausage. In the afternoon a little tourist train takes us to Wulai Falls, and the day ends in the hot-spring street.' },
    ja: { headline: '烏来の山里育ち。タイヤル族の文化をお伝えしたいです。', description: '烏来泰雅民族博物館で顔の入れ墨や機織りの伝統を学び、竹筒ご飯と馬告ソーセージを味わいます。午後はトロッコで烏来瀑布へ。最後は温泉街でゆっくり過ごします。' },
  },
  楊惠如: {
    en: { headline: 'Married into a Hakka family; I show you Taoyuan\'s Hakka life and old streets.', description: 'A morning on Daxi Old Street with its baroque facades and the Daxi Wood Art Museum, plus a bag of braised dried tofu. In the afternoon in Longtan we grind sesame and tea leaves into Hakka lei cha and listen to village stories.' },
    ja: { headline: '客家に嫁いだガイドが、桃園の客家文化と老街をご案内します。', description: '午前は大渓老街でバロック風の街並みと大渓木芸生態博物館を見学し、名物の豆干をお土産に。午後は龍潭でごまや茶葉をすりつぶして客家の擂茶を作り、村の昔話を聞きます。' },
  },
  邱文彬: {
    en: { headline: 'Third-generation tea farmer in Beipu, fluent in Hakka.', description: 'We visit Citian Temple and the Jinguangcheng mansion on Beipu Old Street and taste honey-scented Oriental Beauty tea. In the afternoon: ginger-lily rice dumplings at Neiwan and a ride on the Neiwan Line through the hills.' },
    ja: { headline: '北埔の茶農家三代目。本場の客家語を話します。', description: '北埔老街で慈天宮と金広成の古民家を見学し、蜜の香りの東方美人茶を味わいます。午後は内湾老街で野薑花ちまきを食べ、内湾線のローカル列車で山あいの景色を楽しみます。' },
  },
  許嘉玲: {
    en: { headline: 'A former curator showing you Taichung\'s art and design.', description: 'Rainbow Village in the morning, then the design shops of Shen Ji New Village. Ice cream at Fourth Credit Union and souvenirs at Miyahara, then an exhibition at the National Taiwan Museum of Fine Arts and a walk along the Calligraphy Greenway.' },
    ja: { headline: '元キュレーターが、台中のアートとデザインをご案内します。', description: '午前は彩虹眷村と審計新村の雑貨店めぐり。第四信用合作社でアイスを食べ、宮原眼科でお土産を。午後は国立台湾美術館で展示を見て、夕方は草悟道の緑道を散歩します。' },
  },
  鄭凱文: {
    en: { headline: 'Barista and tea taster: Taichung, one cup at a time.', description: 'We start at the original Chun Shui Tang where bubble tea was born, then try pour-over at an independent café near Parklane. In the afternoon we drive up to Xinshe for a mushroom farm and coffee with a view.' },
    ja: { headline: 'バリスタ兼ティーテイスターが、一杯ずつ台中の味をお伝えします。', description: 'タピオカミルクティー発祥の春水堂創業店から始まり、勤美誠品周辺の自家焙煎カフェでハンドドリップを体験。午後は新社へ向かい、きのこ農園を見学して景色とコーヒーを楽しみます。' },
  },
  謝孟哲: {
    en: { headline: 'Born and raised in Taichung; I eat every meal at markets and night markets.', description: 'Breakfast of bawan and radish cake at the Second Market, then Luce Chapel at Tunghai University. In the evening Fengjia Night Market: sausage in sticky rice, sweet-potato balls and a local bubble tea to finish.' },
    ja: { headline: '生粋の台中っ子。三食すべて市場と夜市で食べています。', description: '朝は第二市場で肉圓や大根もちの朝ごはん。東海大学の路思義教会を見学し、夕方は逢甲夜市で大腸包小腸やさつまいもボールを食べ歩き、地元のドリンクで締めくくります。' },
  },
  郭品妤: {
    en: { headline: 'Ecologist and birder for ten years, introducing Taiwan\'s endemic species.', description: 'At dawn we search Dasyueshan forest roads for Mikado pheasants and Swinhoe\'s pheasants. In the afternoon: fiddler crabs and shorebirds at Gaomei Wetlands until the sunset between the wind turbines. Binoculars and field guides provided.' },
    ja: { headline: '野鳥観察歴十年の生態研究員が、台湾固有種をご紹介します。', description: '早朝に大雪山の林道でミカドキジやサンケイを探し、午後は高美湿地でシオマネキや水鳥を観察、風車の間に沈む夕日を待ちます。双眼鏡と図鑑をご用意します。' },
  },
  洪明德: {
    ja: { headline: '日月潭のサイクリングコーチ。湖一周のルートは目をつぶっても走れます。', description: '向山ビジターセンターで自転車を借り、湖畔の自転車道を水社まで。伊達邵でサオ族料理の昼食、午後は遊覧船で玄光寺へ渡り名物の茶葉卵を。ロープウェイから湖を見下ろし、九族文化村で原住民の歌と踊りを楽しみます。' },
  },
  曾淑芬: {
    en: { headline: 'A Lugu tea farmer\'s daughter who knows tea from picking to roasting.', description: 'A forest walk at Xitou to University Pond and the giant trees, then a Dongding tea garden to watch rolling and roasting and compare oolongs of different roasts. A snack at the Monster Village before heading down.' },
    ja: { headline: '鹿谷の茶農家の娘。茶摘みから焙煎まで知り尽くしています。', description: '渓頭自然教育園区で大学池と神木の森林浴。午後は凍頂山の茶園を訪ね、揉捻と焙煎の工程を見学し、焙煎度の違う凍頂烏龍茶を飲み比べます。帰りに妖怪村でおやつを。' },
  },
  賴冠宇: {
    en: { headline: 'An Alishan railway fan who knows the story of every station.', description: 'Before dawn the Zhushan Line takes us to watch the sun rise over a sea of clouds. We walk the giant-tree trail and Sister Ponds, eat a railway bento at Fenqihu on the way down and end with turkey rice in Chiayi.' },
    ja: { headline: '阿里山鉄道ファン。どの駅の物語もお話しできます。', description: '夜明け前に祝山線で展望台へ向かい、雲海からの日の出を待ちます。神木群の遊歩道と姉妹潭を歩き、下山途中の奮起湖で駅弁を、夕方は嘉義市内で鶏肉飯をいただきます。' },
  },
  周郁潔: {
    en: { headline: 'A history graduate who ties together four hundred years of Tainan.', description: 'Chihkan Tower and the Grand Mazu and Martial temples tell the city\'s Dutch, Koxinga and Qing stories; lunch is beef soup. In the afternoon Anping Fort and the Anping Tree House, then the cannons of Eternal Golden Castle at sunset.' },
    ja: { headline: '歴史学科出身のガイドが、台南四百年の物語をつなぎます。', description: '赤崁楼と祀典武廟でオランダ時代から鄭氏、清朝までの府城の歴史をたどり、昼は牛肉スープを。午後は安平古堡と安平樹屋、夕方は億載金城の砲台で夕日を待ちます。' },
  },
  葉建宏: {
    en: { headline: 'A Tainan gourmand: eight stalls a day is the minimum.', description: 'Fresh beef soup at dawn, shrimp rice and eel noodles on Guohua Street, coffin bread at Kangle Market. Then a stroll down Shennong and Zhengxing streets with old-style black tea, and Garden Night Market if it is open.' },
  },
  蘇曉薇: {
    en: { headline: 'A temple-architecture lover who reads the stories on the roofs.', description: 'We start at the Confucius Temple, then compare the cut-porcelain, paintings and door gods of two Mazu temples. In the afternoon you learn how to cast moon blocks and draw fortune sticks, and visit the altar makers and pastry shops around the temples.' },
    ja: { headline: '廟建築好きのガイドが、屋根の上の物語を読み解きます。', description: '台南孔子廟から始まり、大天后宮と開基天后宮の剪黏や彩色、門神を見比べます。午後はポエやおみくじの作法を学び、廟の周りの神具店や菓子店を訪ねます。' },
  },
  莊子軒: {
    en: { headline: 'Raised in a Qigu fishing village; lagoons and salt fields are my backyard.', description: 'Qigu Salt Mountain and the Taiwan Salt Museum, fresh seafood at Jiangjun harbour, then a raft trip across the lagoon past oyster racks and mangroves. From October to April we can watch black-faced spoonbills.' },
    ja: { headline: '七股の漁村育ち。潟湖と塩田の生態に詳しいです。', description: '七股塩山と台湾塩博物館で三百年の製塩の歴史を学び、将軍漁港で獲れたての海鮮を。午後はいかだで七股潟湖をめぐり、牡蠣棚とマングローブを見学。10月から4月はクロツラヘラサギも観察できます。' },
  },
  呂欣儀: {
    en: { headline: 'A Kaohsiung culture lover who knows the old quarters and the new shows.', description: 'Exhibitions and design shops at Pier-2, old trains at Hamasen Railway Park, the British Consulate overlooking the harbour, sunset at Sizihwan, and a dinner in Yancheng that locals have eaten since childhood.' },
    ja: { headline: '港町のカルチャー好きが、高雄の旧市街と新しい展示をご案内します。', description: '駁二芸術特区で展示と雑貨店めぐり、ライトレールで哈瑪星鉄道文化園区へ。打狗英国領事館から港を眺め、西子湾で夕日を見たあとは塩埕区で地元の人の定番夕食を。' },
  },
  江柏霖: {
    en: { headline: 'A Cijin local, perfect for a family day by the sea.', description: 'We take the ferry to Cijin, ride a tandem bike along the coast to the Rainbow Church and the lighthouse, eat fresh seafood on the old street and play on the beach. Easy walking, no rushing: good with children and grandparents.' },
  },
  何佳穎: {
    en: { headline: 'I speak four languages and introduce Taiwan\'s religious culture.', description: 'In through the dragon, out through the tiger at Lotus Pond\'s pagodas, then the Spring and Autumn Pavilions. After a vegetarian lunch we visit the Buddha Museum at Fo Guang Shan to learn about Humanistic Buddhism, and watch the sunset before the great Buddha.' },
    ja: { headline: '4か国語を話すガイドが、台湾の宗教文化をご紹介します。', description: '蓮池潭の龍虎塔を龍の口から入って虎の口から出て、春秋閣を見学。精進料理の昼食のあと、仏光山仏陀紀念館で人間仏教と寺院の暮らしを学び、大仏の前で夕日を眺めます。' },
  },
  蕭宇翔: {
    en: { headline: 'A Meinong Hakka son who shows you the countryside by bike.', description: 'Paint an oil-paper umbrella and eat Hakka flat noodles in Meinong, then cycle round Meinong Lake past tobacco barns and rice fields. In the evening, Ruifeng Night Market back in Kaohsiung.' },
    ja: { headline: '美濃の客家っ子が、自転車で田園をご案内します。', description: '美濃で油紙傘の絵付けを体験し、客家の粄條を味わいます。午後は自転車で美濃湖やタバコ乾燥小屋、田んぼをめぐり、夜は高雄市内の瑞豊夜市へ。' },
  },
  羅國棟: {
    en: { headline: 'A diving instructor who has worked on the Kenting coast for fifteen years.', description: 'Snorkelling at Houbihu among corals and tropical fish, equipment and insurance included. Seafood at Wanlitong, the grasslands of Longpan Park, sunset at Guanshan and grilled squid on Kenting Street.' },
    ja: { headline: '墾丁の海で十五年働くダイビングインストラクターです。', description: '後壁湖でシュノーケリング、サンゴ礁と熱帯魚を観察します（器材と保険込み）。萬里桐で海鮮の昼食、龍磐公園の草原、関山の夕日、夜は墾丁大街で焼きイカを。' },
  },
  高筱雯: {
    ja: { headline: '幼稚園の先生からガイドに転職。親子旅の心強い味方です。', description: '国立伝統芸術センターで布袋劇を見て昔のおもちゃ作りを体験。羅東林業文化園区を散歩し、夜は羅東夜市でグルメを楽しみます。ゆったりしたペースでお子さま連れにおすすめです。' },
  },
  潘信良: {
    en: { headline: 'From a Toucheng fishing village: out to sea to see Guishan Island.', description: 'A boat from Wushi Harbour round Guishan Island, looking for dolphins and whales (March to October). Then Toucheng Old Street, a hot-spring soak in Jiaoxi and crisp hot-spring water spinach.' },
    ja: { headline: '頭城の漁村出身。船で亀山島へご案内します。', description: '烏石港から船で亀山島を一周し、イルカやクジラを探します（3月〜10月）。午後は頭城老街を散策、夕方は礁渓温泉でひと休みし、温泉空心菜をいただきます。' },
  },
  '巴奈·古拉斯': {
    en: { headline: 'An Amis woman who wants more people to know the wisdom of village life.', description: 'At Mataian Wetland we learn the Amis palakaw way of fishing and eat wild greens and stone hot pot. In the afternoon you weave a small basket in a village workshop and hear about the harvest festival and age grades.' },
    ja: { headline: 'アミ族のガイドが、集落の暮らしの知恵をお伝えします。', description: '馬太鞍湿地でアミ族伝統のパラカウ漁法を学び、山菜と石焼き鍋の昼食を。午後は集落の工房で小さなかごを編み、豊年祭や年齢階級の話を聞きます。' },
  },
  '瓦旦·達道': {
    en: { headline: 'A Truku guide: the mountains are my classroom.', description: 'Early into Taroko National Park: the clear waters of the Shakadang Trail, then the marble gorge at Swallow Grotto and the Tunnel of Nine Turns. After a Truku lunch we choose a trail by what is open and hear stories of hunting, weaving and mountain taboos.' },
    ja: { headline: 'タロコ族のガイド。山と森が私の教室です。', description: '早朝に太魯閣国家公園へ入り、砂卡礑歩道の清流を歩き、燕子口と九曲洞で大理石の峡谷を眺めます。タロコ族料理の昼食のあと、歩道の開放状況に合わせてルートを選び、狩猟や機織り、山の掟の話を聞きます。' },
  },
  廖偉成: {
    en: { headline: 'A Hualien local who cycles to work every day: come feel the sea breeze.', description: 'We ride the coastal bike path to Qixingtan, past the old bunkers of Hill 48, for the deep blue Pacific and its pebble beach. Then the Hualien Creative Park and aboriginal barbecue at Dongdamen Night Market.' },
    ja: { headline: '毎日自転車で通勤する花蓮っ子が、海風の中をご案内します。', description: '海岸の自転車道を七星潭まで走り、四八高地の旧トーチカを過ぎて太平洋の青と玉石の浜へ。午後は花蓮文化創意産業園区、夜は東大門夜市で原住民の焼肉を。' },
  },
};

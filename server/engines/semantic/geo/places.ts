/**
 * Russian federal subjects and cities with their short and colloquial names, plus the neighbouring
 * countries and capitals advertisers most often see in queries. Data only; matching is in gazetteer.ts.
 *
 * Origin (see README.md here): compiled by hand for Reklama Lab from the list of federal subjects in
 * art. 65 of the Constitution of the Russian Federation and Rosstat's list of cities over ~100 000
 * people (plus every regional capital below that), with the short names people type in queries
 * (спб, питер, мск, екб, нск, ннов…). No maintained npm package of Russian cities with colloquial names
 * was found (`russian-cities`, `russia-cities`: not on the registry).
 *
 * Names are lower case with ё written as е; a hyphen splits words as in queries. The first name is
 * the one written as a negative. `region` of a city is the subject around it (Moscow → Московская
 * область, Saint Petersburg → Ленинградская область, Sevastopol → Крым): advertisers who name the city
 * serve its suburbs, and the reverse. `ambiguous`: the name is also an ordinary word or a person's name
 * (Владимир, Орёл, Грозный, Шахты…); such a place is never a negative without a person's check.
 */
export interface Place {
  key: string;
  kind: 'city' | 'region' | 'abroad';
  names: string[];
  /** City: the subject around it. */
  region?: string;
  /** Region: its capital (or main city). */
  capital?: string;
  ambiguous?: boolean;
}

/** `key|name, name…|region-or-capital|!` (the trailing `!` marks an ambiguous name). */
const regionRows = `
moskovskaya-obl|московская область, подмосковье, мо, мособласть|moskva
leningradskaya-obl|ленинградская область, ленобласть, ленинградская обл, ло|spb
krym|крым, республика крым|simferopol
adygeya|адыгея, республика адыгея|maykop
altay-resp|республика алтай, горный алтай|gorno-altaysk
bashkortostan|башкортостан, башкирия|ufa
buryatiya|бурятия|ulan-ude
dagestan|дагестан|makhachkala
ingushetiya|ингушетия|magas
kbr|кабардино-балкария, кбр|nalchik
kalmykiya|калмыкия|elista
kchr|карачаево-черкесия, кчр|cherkessk
kareliya|карелия|petrozavodsk
komi|республика коми, коми|syktyvkar
mariy-el|марий эл|yoshkar-ola
mordoviya|мордовия|saransk
yakutiya|якутия, саха|yakutsk
osetiya|северная осетия, осетия, алания|vladikavkaz
tatarstan|татарстан, татария|kazan
tyva|тыва, тува|kyzyl
udmurtiya|удмуртия|izhevsk
khakasiya|хакасия|abakan
chechnya|чечня, чеченская республика|grozny
chuvashiya|чувашия|cheboksary
altayskiy-kray|алтайский край, алтай|barnaul
zabaykalskiy|забайкальский край, забайкалье|chita
kamchatskiy|камчатский край, камчатка|petropavlovsk
krasnodarskiy|краснодарский край, кубань|krasnodar
krasnoyarskiy|красноярский край|krasnoyarsk
permskiy|пермский край, прикамье|perm
primorskiy|приморский край, приморье|vladivostok
stavropolskiy|ставропольский край, ставрополье|stavropol
khabarovskiy|хабаровский край|khabarovsk
amurskaya|амурская область, приамурье|blagoveshchensk
arkhangelskaya|архангельская область|arkhangelsk
astrakhanskaya|астраханская область|astrakhan
belgorodskaya|белгородская область, белгородчина|belgorod
bryanskaya|брянская область, брянщина|bryansk
vladimirskaya|владимирская область|vladimir
volgogradskaya|волгоградская область|volgograd
vologodskaya|вологодская область, вологодчина|vologda
voronezhskaya|воронежская область|voronezh
ivanovskaya|ивановская область|ivanovo
irkutskaya|иркутская область, приангарье|irkutsk
kaliningradskaya|калининградская область|kaliningrad
kaluzhskaya|калужская область|kaluga
kemerovskaya|кемеровская область, кузбасс|kemerovo
kirovskaya|кировская область|kirov
kostromskaya|костромская область|kostroma
kurganskaya|курганская область|kurgan
kurskaya|курская область|kursk
lipetskaya|липецкая область|lipetsk
magadanskaya|магаданская область|magadan
murmanskaya|мурманская область|murmansk
nizhegorodskaya|нижегородская область|nn
novgorodskaya|новгородская область|veliky-novgorod
novosibirskaya|новосибирская область|novosibirsk
omskaya|омская область|omsk
orenburgskaya|оренбургская область, оренбуржье|orenburg
orlovskaya|орловская область, орловщина|orel
penzenskaya|пензенская область|penza
pskovskaya|псковская область|pskov
rostovskaya|ростовская область|rostov
ryazanskaya|рязанская область|ryazan
samarskaya|самарская область|samara
saratovskaya|саратовская область|saratov
sakhalinskaya|сахалинская область, сахалин|yuzhno-sakhalinsk
sverdlovskaya|свердловская область|ekaterinburg
smolenskaya|смоленская область, смоленщина|smolensk
tambovskaya|тамбовская область|tambov
tverskaya|тверская область|tver
tomskaya|томская область|tomsk
tulskaya|тульская область|tula
tyumenskaya|тюменская область|tyumen
ulyanovskaya|ульяновская область|ulyanovsk
chelyabinskaya|челябинская область|chelyabinsk
yaroslavskaya|ярославская область|yaroslavl
evreyskaya|еврейская автономная область, еао|birobidzhan
nao|ненецкий автономный округ, нао|naryan-mar
khmao|ханты-мансийский автономный округ, хмао, югра|khanty-mansiysk
chukotka|чукотка, чукотский автономный округ|anadyr
yanao|ямало-ненецкий автономный округ, янао, ямал|salekhard
dnr|донецкая народная республика, днр|donetsk
lnr|луганская народная республика, лнр|lugansk
zaporozhskaya|запорожская область|melitopol
khersonskaya|херсонская область|genichesk
`;

const cityRows = `
moskva|москва, мск, московский, масква|moskovskaya-obl
spb|спб, питер, санкт-петербург, петербург, ленинград, питерский, петербургский, северная столица|leningradskaya-obl
sevastopol|севастополь|krym
simferopol|симферополь|krym
ekaterinburg|екатеринбург, екб, екат, екатеринбургский, ебург|sverdlovskaya
novosibirsk|новосибирск, нск, новосиб, новосибирский|novosibirskaya
kazan|казань, казанский|tatarstan
nn|нижний новгород, нн, ннов, нижегородский|nizhegorodskaya
chelyabinsk|челябинск, челяба, челябинский|chelyabinskaya
krasnoyarsk|красноярск, красноярский|krasnoyarskiy
samara|самара, самарский|samarskaya
ufa|уфа|bashkortostan
rostov|ростов-на-дону, ростов, рнд|rostovskaya
omsk|омск, омский|omskaya
krasnodar|краснодар, кдр, краснодарский|krasnodarskiy
voronezh|воронеж, воронежский|voronezhskaya
perm|пермь, пермский|permskiy
volgograd|волгоград, волгоградский|volgogradskaya
saratov|саратов|saratovskaya
tyumen|тюмень|tyumenskaya
tolyatti|тольятти|samarskaya
izhevsk|ижевск|udmurtiya
barnaul|барнаул|altayskiy-kray
ulyanovsk|ульяновск|ulyanovskaya
irkutsk|иркутск|irkutskaya
khabarovsk|хабаровск|khabarovskiy
makhachkala|махачкала|dagestan
yaroslavl|ярославль|yaroslavskaya
vladivostok|владивосток|primorskiy
orenburg|оренбург|orenburgskaya
tomsk|томск|tomskaya
kemerovo|кемерово|kemerovskaya
novokuznetsk|новокузнецк|kemerovskaya
ryazan|рязань|ryazanskaya
astrakhan|астрахань|astrakhanskaya
naberezhnye-chelny|набережные челны, челны|tatarstan
penza|пенза|penzenskaya
kirov|киров|kirovskaya|!
lipetsk|липецк|lipetskaya
cheboksary|чебоксары|chuvashiya
balashikha|балашиха|moskovskaya-obl
kaliningrad|калининград|kaliningradskaya
tula|тула|tulskaya
stavropol|ставрополь|stavropolskiy
kursk|курск|kurskaya
sochi|сочи|krasnodarskiy
ulan-ude|улан-удэ|buryatiya
tver|тверь|tverskaya
magnitogorsk|магнитогорск|chelyabinskaya
ivanovo|иваново|ivanovskaya
bryansk|брянск|bryanskaya
belgorod|белгород|belgorodskaya
surgut|сургут|khmao
vladimir|владимир|vladimirskaya|!
chita|чита|zabaykalskiy
arkhangelsk|архангельск|arkhangelskaya
nizhny-tagil|нижний тагил|sverdlovskaya
kaluga|калуга|kaluzhskaya
smolensk|смоленск|smolenskaya
volzhsky|волжский|volgogradskaya|!
yakutsk|якутск|yakutiya
saransk|саранск|mordoviya
cherepovets|череповец|vologodskaya
kurgan|курган|kurganskaya|!
vologda|вологда|vologodskaya
orel|орел|orlovskaya|!
podolsk|подольск|moskovskaya-obl
vladikavkaz|владикавказ|osetiya
grozny|грозный|chechnya|!
murmansk|мурманск|murmanskaya
tambov|тамбов|tambovskaya
sterlitamak|стерлитамак|bashkortostan
petrozavodsk|петрозаводск|kareliya
kostroma|кострома|kostromskaya
nizhnevartovsk|нижневартовск|khmao
novorossiysk|новороссийск|krasnodarskiy
yoshkar-ola|йошкар-ола|mariy-el
khimki|химки|moskovskaya-obl
taganrog|таганрог|rostovskaya
komsomolsk|комсомольск-на-амуре|khabarovskiy
syktyvkar|сыктывкар|komi
nizhnekamsk|нижнекамск|tatarstan
nalchik|нальчик|kbr
shakhty|шахты|rostovskaya|!
dzerzhinsk|дзержинск|nizhegorodskaya
bratsk|братск|irkutskaya
orsk|орск|orenburgskaya
angarsk|ангарск|irkutskaya
blagoveshchensk|благовещенск|amurskaya
engels|энгельс|saratovskaya|!
korolev|королев|moskovskaya-obl|!
veliky-novgorod|великий новгород, новгород|novgorodskaya
stary-oskol|старый оскол|belgorodskaya
mytishchi|мытищи|moskovskaya-obl
pskov|псков|pskovskaya
lyubertsy|люберцы|moskovskaya-obl
yuzhno-sakhalinsk|южно-сахалинск|sakhalinskaya
biysk|бийск|altayskiy-kray
prokopyevsk|прокопьевск|kemerovskaya
armavir|армавир|krasnodarskiy
balakovo|балаково|saratovskaya
abakan|абакан|khakasiya
rybinsk|рыбинск|yaroslavskaya
severodvinsk|северодвинск|arkhangelskaya
petropavlovsk|петропавловск-камчатский|kamchatskiy
norilsk|норильск|krasnoyarskiy
ussuriysk|уссурийск|primorskiy
volgodonsk|волгодонск|rostovskaya
syzran|сызрань|samarskaya
novocherkassk|новочеркасск|rostovskaya
kamensk-uralsky|каменск-уральский|sverdlovskaya
zlatoust|златоуст|chelyabinskaya
elektrostal|электросталь|moskovskaya-obl
almetyevsk|альметьевск|tatarstan
salavat|салават|bashkortostan|!
miass|миасс|chelyabinskaya
kerch|керчь|krym
kopeysk|копейск|chelyabinskaya
pyatigorsk|пятигорск|stavropolskiy
nakhodka|находка|primorskiy|!
khasavyurt|хасавюрт|dagestan
rubtsovsk|рубцовск|altayskiy-kray
maykop|майкоп|adygeya
kolomna|коломна|moskovskaya-obl
odintsovo|одинцово|moskovskaya-obl
kovrov|ковров|vladimirskaya|!
krasnogorsk|красногорск|moskovskaya-obl
kislovodsk|кисловодск|stavropolskiy
serpukhov|серпухов|moskovskaya-obl
novocheboksarsk|новочебоксарск|chuvashiya
nefteyugansk|нефтеюганск|khmao
dimitrovgrad|димитровград|ulyanovskaya
neftekamsk|нефтекамск|bashkortostan
cherkessk|черкесск|kchr
derbent|дербент|dagestan
kamyshin|камышин|volgogradskaya
nevinnomyssk|невинномысск|stavropolskiy
murom|муром|vladimirskaya
kyzyl|кызыл|tyva
oktyabrsky|октябрьский|bashkortostan|!
novy-urengoy|новый уренгой, уренгой|yanao
noyabrsk|ноябрьск|yanao
shchelkovo|щелково|moskovskaya-obl
domodedovo|домодедово|moskovskaya-obl
seversk|северск|tomskaya
obninsk|обнинск|kaluzhskaya
essentuki|ессентуки|stavropolskiy
novomoskovsk|новомосковск|tulskaya
yevpatoriya|евпатория|krym
pervouralsk|первоуральск|sverdlovskaya
elets|елец|lipetskaya
nazran|назрань|ingushetiya
kaspiysk|каспийск|dagestan
artem|артем|primorskiy|!
berdsk|бердск|novosibirskaya
zhukovsky|жуковский|moskovskaya-obl|!
pushkino|пушкино|moskovskaya-obl
reutov|реутов|moskovskaya-obl
sergiev-posad|сергиев посад|moskovskaya-obl
noginsk|ногинск|moskovskaya-obl
elista|элиста|kalmykiya
gorno-altaysk|горно-алтайск|altay-resp
magas|магас|ingushetiya
anadyr|анадырь|chukotka
naryan-mar|нарьян-мар|nao
salekhard|салехард|yanao
birobidzhan|биробиджан|evreyskaya
khanty-mansiysk|ханты-мансийск|khmao
magadan|магадан|magadanskaya
donetsk|донецк|dnr
lugansk|луганск|lnr
melitopol|мелитополь|zaporozhskaya
genichesk|геническ|khersonskaya
`;

const abroadRows = `
kiev|киев
minsk|минск
almaty|алматы, алма-ата
astana|астана
tashkent|ташкент
baku|баку
yerevan|ереван
tbilisi|тбилиси
bishkek|бишкек
chisinau|кишинев
dushanbe|душанбе
ukraina|украина
belarus|беларусь, белоруссия
kazakhstan|казахстан
uzbekistan|узбекистан
armeniya|армения
gruziya|грузия
moldova|молдова, молдавия
kyrgyzstan|киргизия, кыргызстан
tadzhikistan|таджикистан
`;

function parseRows(rows: string, kind: Place['kind']): Place[] {
  return rows
    .trim()
    .split('\n')
    .map((row) => {
      const [key, names, link, flag] = row.split('|');
      const place: Place = { key, kind, names: names.split(',').map((name) => name.trim()) };
      if (kind === 'city' && link) place.region = link;
      if (kind === 'region' && link) place.capital = link;
      if (flag === '!') place.ambiguous = true;
      return place;
    });
}

export const places: Place[] = [
  ...parseRows(regionRows, 'region'),
  ...parseRows(cityRows, 'city'),
  ...parseRows(abroadRows, 'abroad'),
];

// Countries for the phone-code and country pickers (spec §3 countryInfo). Names shown to the user
// come from Intl.DisplayNames in the active language; english_name and chinese_name are kept
// because the stored countryInfo carries them.
import type { CountryInfo } from './country.ts';

export type { CountryInfo };

const rows = `US|United States|美国|1
CA|Canada|加拿大|1
GB|United Kingdom|英国|44
AU|Australia|澳大利亚|61
NZ|New Zealand|新西兰|64
IE|Ireland|爱尔兰|353
DE|Germany|德国|49
FR|France|法国|33
IT|Italy|意大利|39
ES|Spain|西班牙|34
PT|Portugal|葡萄牙|351
NL|Netherlands|荷兰|31
BE|Belgium|比利时|32
CH|Switzerland|瑞士|41
AT|Austria|奥地利|43
SE|Sweden|瑞典|46
NO|Norway|挪威|47
DK|Denmark|丹麦|45
FI|Finland|芬兰|358
PL|Poland|波兰|48
CZ|Czechia|捷克|420
GR|Greece|希腊|30
TR|Türkiye|土耳其|90
RU|Russia|俄罗斯|7
UA|Ukraine|乌克兰|380
AE|United Arab Emirates|阿联酋|971
SA|Saudi Arabia|沙特阿拉伯|966
IL|Israel|以色列|972
EG|Egypt|埃及|20
ZA|South Africa|南非|27
NG|Nigeria|尼日利亚|234
KE|Kenya|肯尼亚|254
MA|Morocco|摩洛哥|212
IN|India|印度|91
PK|Pakistan|巴基斯坦|92
BD|Bangladesh|孟加拉国|880
LK|Sri Lanka|斯里兰卡|94
NP|Nepal|尼泊尔|977
CN|China|中国|86
HK|Hong Kong|中国香港|852
MO|Macao|中国澳门|853
TW|Taiwan|中国台湾|886
JP|Japan|日本|81
KR|South Korea|韩国|82
MN|Mongolia|蒙古|976
TH|Thailand|泰国|66
MY|Malaysia|马来西亚|60
SG|Singapore|新加坡|65
ID|Indonesia|印度尼西亚|62
PH|Philippines|菲律宾|63
VN|Vietnam|越南|84
KH|Cambodia|柬埔寨|855
LA|Laos|老挝|856
MM|Myanmar|缅甸|95
MX|Mexico|墨西哥|52
BR|Brazil|巴西|55
AR|Argentina|阿根廷|54
CL|Chile|智利|56
CO|Colombia|哥伦比亚|57
PE|Peru|秘鲁|51
VE|Venezuela|委内瑞拉|58`;

export const countries: CountryInfo[] = rows.split('\n').map((row) => {
  const [country_code, english_name, chinese_name, phone_code] = row.split('|');
  return { country_code, english_name, chinese_name, phone_code };
});


/** The country's name in the given language, falling back to the English name. */
export function countryName(country: Pick<CountryInfo, 'country_code' | 'english_name'>, intlLocale: string): string {
  try {
    return new Intl.DisplayNames([intlLocale], { type: 'region' }).of(country.country_code) ?? country.english_name;
  } catch {
    return country.english_name;
  }
}
